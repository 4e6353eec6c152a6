import Box from '@mui/material/Box';
import { DataGrid, GRID_CHECKBOX_SELECTION_COL_DEF } from '@mui/x-data-grid';
import { deDE } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { HIDDEN_BY_DEFAULT, userColumns } from './columns.js';
import type { UsersListProps } from './listProps.js';
import type { useUsersGrid } from './useUsersGrid.js';
import { GRID_BOX_SX, PAGE_SIZES } from './view.js';

/**
 * The grid renders rows only near the viewport but all its columns, even those scrolled out of view:
 * few enough to cost little, and the manage column stays reachable by keyboard and assistive technology.
 */
const COLUMN_BUFFER_PX = 4000;

export interface UsersGridProps extends UsersListProps {
  gridProps: ReturnType<typeof useUsersGrid>['gridProps'];
  /** A click on a row (outside its checkbox and menu) opens the user's page. */
  onOpen: (user: Pick<AdminUser, 'id'>) => void;
}

/**
 * The users list on a screen wide enough for a table (the page shows cards on a phone, ./UserCards.tsx):
 * MUI X's DataGrid, paged and sorted on the server (./useUsersGrid.ts). It is the page's only user of the
 * DataGrid, loaded with this module: a phone never loads it.
 */
export default function UsersGrid({ gridProps, noRowsLabel, selection, onSelection, selfId, onAction, userPath, onOpen, allowed }: UsersGridProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const columns = useMemo(() => userColumns({ t, language, selfId, onAction, userPath, allowed }), [t, language, selfId, onAction, userPath, allowed]);
  const localeText = useMemo(
    () => ({
      ...(language === 'de' ? deDE.components.MuiDataGrid.defaultProps.localeText : {}),
      booleanCellTrueLabel: t('pages.users.yes'),
      booleanCellFalseLabel: t('pages.users.no'),
      noRowsLabel,
      actionsCellMore: t('pages.users.rowActions'),
    }),
    [language, t, noRowsLabel],
  );
  return (
    <Box sx={GRID_BOX_SX}>
      <DataGrid
        {...gridProps}
        columns={columns}
        pageSizeOptions={PAGE_SIZES}
        disableColumnFilter
        columnBufferPx={COLUMN_BUFFER_PX}
        initialState={{ columns: { columnVisibilityModel: HIDDEN_BY_DEFAULT } }}
        // Issue 47: rows are selected only for the bulk actions, which only some staff may take.
        checkboxSelection={allowed.bulk}
        disableRowSelectionOnClick
        rowSelectionModel={selection}
        onRowSelectionModelChange={onSelection}
        onCellClick={(params) => {
          if (params.field === GRID_CHECKBOX_SELECTION_COL_DEF.field || params.field === 'manage') return;
          onOpen({ id: String(params.id) });
        }}
        sx={{
          '& .MuiDataGrid-row': { cursor: 'pointer' },
          // DataGrid's filler (the line below the last row, and room for the horizontal scrollbar) is drawn
          // where the rows end, and jumps when they arrive: Lighthouse counted a layout shift of 0.13 on
          // every load. It is left out; the last row draws its own line, and the rows leave the scrollbar's room.
          '& .MuiDataGrid-filler': { display: 'none' },
          '& .MuiDataGrid-row--lastVisible .MuiDataGrid-cell': { borderBottom: '1px solid var(--DataGrid-rowBorderColor)' },
          '& .MuiDataGrid-virtualScrollerContent': { boxSizing: 'content-box', paddingBottom: 'calc(var(--DataGrid-hasScrollX) * var(--DataGrid-scrollbarSize))' },
        }}
        localeText={localeText}
        aria-label={t('pages.users.tableLabel')}
      />
    </Box>
  );
}
