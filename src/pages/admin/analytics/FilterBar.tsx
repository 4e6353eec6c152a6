import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { Path, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MAX_RANGE_DAYS, SUSPICIOUS_FILTERS, type Granularity } from '../../../../contract/analytics-values.js';
import { RANGE_PRESETS, type FilterField, type FilterInput, type FilterProblems, type RangePreset } from './filters.js';

interface FilterBarProps<G extends Granularity> {
  /** The form's fields (./useAnalyticsFilters.ts), each checked with the whole bar on `onChange`. */
  register: UseFormRegister<FilterInput<G>>;
  problems: FilterProblems;
  granularities: readonly G[];
  onChange: () => void;
  /** The preset the range matches, if any. */
  preset: RangePreset | null;
  onPreset: (preset: RangePreset) => void;
  /** A change is still to come (checked, waiting for typing to pause, or asked for): the bar is busy. */
  pending: boolean;
}

/**
 * The filters of spec section 3 above the analytics and cohort figures: the date range, the
 * granularity, 'contains suspicious data' and the played-time bounds, with one-click ranges above
 * them (issue 21 item 3). A wrong entry is named under its field (and marked invalid for assistive
 * technology); the figures of the last valid filters stay until it is put right.
 */
export function FilterBar<G extends Granularity>({ register, problems, granularities, onChange, preset, onPreset, pending }: FilterBarProps<G>) {
  const { t } = useTranslation();
  const problem = (field: FilterField) => {
    const key = problems[field];
    return { error: key !== undefined, helperText: key ? t(`pages.analytics.problems.${key}`, { days: MAX_RANGE_DAYS }) : undefined };
  };
  const field = { size: 'small' as const, sx: { width: { xs: '100%', sm: 190 } } };
  const input = (name: Path<FilterInput<G>>) => register(name, { onChange });

  return (
    <Box
      component="form"
      role="search"
      aria-label={t('pages.analytics.filters')}
      aria-busy={pending}
      noValidate
      onSubmit={(event) => event.preventDefault()}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}
    >
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
        {...input('from')}
        {...problem('from')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        {...field}
        id="analytics-to"
        label={t('pages.analytics.to')}
        type="date"
        {...input('to')}
        {...problem('to')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        {...field}
        id="analytics-granularity"
        select
        label={t('pages.analytics.granularity')}
        // The page's granularities (G) are one of its field's values; TypeScript cannot follow a generic field's path.
        {...input('granularity' as Path<FilterInput<G>>)}
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
        {...input('suspicious')}
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
          {...input(name)}
          {...problem(name)}
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' }, inputLabel: { shrink: true } }}
          sx={{ width: { xs: '100%', sm: 250 } }}
        />
      ))}
    </Box>
  );
}
