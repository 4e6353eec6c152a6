import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { MAX_RANGE_DAYS, SUSPICIOUS_FILTERS, type Granularity, type SuspiciousFilter } from '../../../../contract/analytics-values.js';
import { RANGE_PRESETS, type FilterField, type FilterInput, type FilterProblems, type RangePreset } from './filters.js';

interface FilterBarProps<G extends Granularity> {
  input: FilterInput<G>;
  problems: FilterProblems;
  granularities: readonly G[];
  onChange: (patch: Partial<FilterInput<G>>) => void;
  /** The preset the range matches, if any. */
  preset: RangePreset | null;
  onPreset: (preset: RangePreset) => void;
}

/**
 * The filters of spec section 3 above the analytics and cohort figures: the date range, the
 * granularity, 'contains suspicious data' and the played-time bounds, with one-click ranges above
 * them (issue 21 item 3). A wrong entry is named under its field (and marked invalid for assistive
 * technology); the figures of the last valid filters stay until it is put right.
 */
export function FilterBar<G extends Granularity>({ input, problems, granularities, onChange, preset, onPreset }: FilterBarProps<G>) {
  const { t } = useTranslation();
  const problem = (field: FilterField) => {
    const key = problems[field];
    return { error: key !== undefined, helperText: key ? t(`pages.analytics.problems.${key}`, { days: MAX_RANGE_DAYS }) : undefined };
  };
  const field = { size: 'small' as const, sx: { width: { xs: '100%', sm: 190 } } };

  return (
    <Box component="form" role="search" aria-label={t('pages.analytics.filters')} onSubmit={(event) => event.preventDefault()} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={preset}
        onChange={(_event, next: RangePreset | null) => next && onPreset(next)}
        aria-label={t('pages.analytics.presets.label')}
        data-testid="range-presets"
        // Wraps on a phone rather than widening the page.
        sx={{ flexBasis: '100%', flexWrap: 'wrap' }}
      >
        {RANGE_PRESETS.map((choice) => (
          <ToggleButton key={choice} value={choice} sx={{ textTransform: 'none' }}>
            {t(`pages.analytics.presets.${choice}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        {...field}
        id="analytics-from"
        label={t('pages.analytics.from')}
        type="date"
        value={input.from}
        onChange={(event) => onChange({ from: event.target.value })}
        {...problem('from')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        {...field}
        id="analytics-to"
        label={t('pages.analytics.to')}
        type="date"
        value={input.to}
        onChange={(event) => onChange({ to: event.target.value })}
        {...problem('to')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        {...field}
        id="analytics-granularity"
        select
        label={t('pages.analytics.granularity')}
        value={input.granularity}
        onChange={(event) => onChange({ granularity: event.target.value as G })}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {granularities.map((granularity) => (
          <option key={granularity} value={granularity}>
            {t(`pages.analytics.granularities.${granularity}`)}
          </option>
        ))}
      </TextField>
      <TextField
        {...field}
        id="analytics-suspicious"
        select
        label={t('pages.analytics.suspicious')}
        value={input.suspicious}
        onChange={(event) => onChange({ suspicious: event.target.value as SuspiciousFilter })}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {SUSPICIOUS_FILTERS.map((choice) => (
          <option key={choice} value={choice}>
            {t(`pages.analytics.suspiciousChoices.${choice}`)}
          </option>
        ))}
      </TextField>
      {(['minPlayed', 'maxPlayed'] as const).map((name) => (
        <TextField
          {...field}
          key={name}
          id={`analytics-${name}`}
          label={t(`pages.analytics.${name}`)}
          type="number"
          value={input[name]}
          onChange={(event) => onChange(name === 'minPlayed' ? { minPlayed: event.target.value } : { maxPlayed: event.target.value })}
          {...problem(name)}
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' }, inputLabel: { shrink: true } }}
          sx={{ width: { xs: '100%', sm: 250 } }}
        />
      ))}
    </Box>
  );
}
