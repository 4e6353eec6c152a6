import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Download from '@mui/icons-material/FileDownloadOutlined';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { FILTER_NAMES, FILTER_VALUES, type FilterName, type UsersFilters } from './view.js';

/**
 * The users grid's filter bar (issue 21): one select per filter ("Any" leaves it out), a reset, and the
 * CSV export of what the grid lists. Wraps on a phone. Drawn again only when one of its props changes, not
 * each time the list's answer or the page's other state does (its selects are the page's heaviest fields).
 */
export const UsersToolbar = memo(function UsersToolbar({
  filters,
  onFilter,
  onClear,
  onExport,
  exporting,
}: {
  filters: UsersFilters;
  onFilter: (name: FilterName, value: string | undefined) => void;
  onClear: () => void;
  /** Null when the staff member may not export the list (issue 47: admins only). */
  onExport: (() => void) | null;
  exporting: boolean;
}) {
  const { t } = useTranslation();
  const unfiltered = Object.keys(filters).length === 0;
  return (
    <Box role="group" aria-label={t('pages.users.filters.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
      {FILTER_NAMES.map((name) => (
        <TextField
          key={name}
          id={`users-filter-${name}`}
          select
          size="small"
          label={t(`pages.users.filters.${name}`)}
          value={filters[name] ?? ''}
          onChange={(event) => onFilter(name, event.target.value || undefined)}
          sx={{ minWidth: name === 'signIn' || name === 'plan' ? 170 : 130 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t('pages.users.filters.any')}</MenuItem>
          {FILTER_VALUES[name].map((value) => (
            <MenuItem key={value} value={value}>
              {t(`pages.users.filters.values.${value}`)}
            </MenuItem>
          ))}
        </TextField>
      ))}
      <Button onClick={onClear} disabled={unfiltered}>
        {t('pages.users.filters.clear')}
      </Button>
      <Box sx={{ flexGrow: 1 }} />
      {onExport && (
        <Button variant="outlined" startIcon={<Download />} onClick={onExport} disabled={exporting} title={t('pages.users.export.label')}>
          {t('pages.users.export.button')}
        </Button>
      )}
    </Box>
  );
});
