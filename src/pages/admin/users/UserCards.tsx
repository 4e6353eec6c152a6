import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Fragment, memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { USER_SORT_FIELDS } from '../../../../contract/users-values.js';
import type { AdminUser } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { Staggered } from '../../../components/Staggered.js';
import { formatDate, formatName } from '../../../format/index.js';
import type { UsersListProps } from './listProps.js';
import { STAFF_ROLES } from '../../../../contract/roles.js';
import { rowActionsOf } from './rowActions.js';
import { isSortField, PAGE_SIZES, type UsersView } from './view.js';

export interface UserCardsProps extends UsersListProps {
  rows: readonly AdminUser[];
  /** Everyone the view matches, over all pages. */
  total: number;
  loading: boolean;
  view: UsersView;
  show: (change: Partial<UsersView>) => void;
}

/**
 * The users list on a phone (issue 20 item 10: a table becomes cards under the small breakpoint): each user
 * a card with their name linking to their page, email, plan, verification, role and registration, a box to
 * select them for the bulk actions and a menu with the grid's row actions. The order, the page and the page
 * size are the grid's (the view in the address), set by selects and the pager. It needs none of the
 * DataGrid's code, the largest part of the screen's on a wider screen. Drawn again only when one of its
 * props changes, not each time the page's other state does.
 */
export const UserCards = memo(function UserCards({ rows, total, loading, view, show, noRowsLabel, selection, onSelection, selfId, onAction, userPath, allowed }: UserCardsProps) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; user: AdminUser } | null>(null);
  const openMenu = useCallback((anchor: HTMLElement, user: AdminUser) => setMenu({ anchor, user }), []);
  // A change to the current selection, so the callback stays the same object and an unchanged card is not drawn again.
  const select = useCallback(
    (ids: string[], on: boolean) =>
      onSelection((current) => {
        const next = new Set(current.ids);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return { type: 'include', ids: next };
      }),
    [onSelection],
  );
  const onPage = rows.filter((user) => selection.ids.has(user.id)).length;
  const card = (user: AdminUser) => (
    <UserCard key={user.id} user={user} selected={selection.ids.has(user.id)} onSelect={allowed.bulk ? select : null} onMenu={openMenu} userPath={userPath} />
  );

  return (
    <Box aria-busy={loading}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 1 }}>
        <TextField
          id="users-sort"
          select
          size="small"
          label={t('pages.users.cards.sortBy')}
          value={view.sort?.field ?? ''}
          onChange={(event) => {
            const field = event.target.value;
            show({ sort: isSortField(field) ? { field, order: view.sort?.order ?? 'asc' } : null });
          }}
          sx={{ minWidth: 170, flex: 1 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t('pages.users.cards.defaultOrder')}</MenuItem>
          {USER_SORT_FIELDS.map((field) => (
            <MenuItem key={field} value={field}>
              {t(`pages.users.columns.${field}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="users-order"
          select
          size="small"
          label={t('pages.users.cards.order')}
          value={view.sort?.order ?? 'asc'}
          disabled={!view.sort}
          onChange={(event) => view.sort && show({ sort: { field: view.sort.field, order: event.target.value === 'desc' ? 'desc' : 'asc' } })}
          sx={{ minWidth: 140, flex: 1 }}
        >
          <MenuItem value="asc">{t('pages.users.cards.ascending')}</MenuItem>
          <MenuItem value="desc">{t('pages.users.cards.descending')}</MenuItem>
        </TextField>
      </Box>
      {/* Above the cards: below them it moved down as they came, on the first screen when they are few (a
          layout shift). Shown once there are cards, or past the last page, where there are none to come. */}
      {(rows.length > 0 || (!loading && total > 0)) && (
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : view.page - 1}
          rowsPerPage={view.pageSize}
          rowsPerPageOptions={[...PAGE_SIZES]}
          onPageChange={(_event, page) => show({ page: page + 1 })}
          onRowsPerPageChange={(event) => show({ pageSize: Number(event.target.value) })}
          labelRowsPerPage={t('pages.users.cards.perPage')}
          labelDisplayedRows={({ from, to, count }) => t('pages.users.cards.shown', { from, to, count })}
          getItemAriaLabel={(type) => t(`pages.users.cards.${type}`)}
          sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
        />
      )}
      {rows.length > 0 && allowed.bulk && (
        <FormControlLabel
          label={t('pages.users.cards.selectPage')}
          control={
            <Checkbox
              checked={onPage === rows.length}
              indeterminate={onPage > 0 && onPage < rows.length}
              onChange={(event) => select(rows.map((user) => user.id), event.target.checked)}
            />
          }
        />
      )}
      {/* Room kept for the bar, so the cards do not move when a page loads. */}
      <Box sx={{ height: 4, mb: 1 }}>{loading && <LinearProgress aria-label={t('common.loading')} />}</Box>
      {!loading && rows.length === 0 && <Typography sx={{ my: 2 }}>{noRowsLabel}</Typography>}
      <Box component="ul" aria-label={t('pages.users.tableLabel')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        <Staggered>
          {partsOf(rows).map((part) => (
            <Fragment key={part[0]?.id}>{part.map(card)}</Fragment>
          ))}
        </Staggered>
      </Box>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        {menu &&
          rowActionsOf(menu.user, selfId, t, allowed).map(({ action, icon, label, disabled }) => (
            <MenuItem
              key={action}
              disabled={disabled}
              onClick={() => {
                setMenu(null);
                onAction(action, menu.user);
              }}
            >
              <ListItemIcon>{icon}</ListItemIcon>
              <ListItemText>{label}</ListItemText>
            </MenuItem>
          ))}
      </Menu>
    </Box>
  );
});

/** Cards drawn in one task (Staggered): a page of 25 at once was the phone's longest task at Lighthouse's 4x CPU. */
const CARDS_PER_PART = 5;

function partsOf(rows: readonly AdminUser[]): AdminUser[][] {
  const parts: AdminUser[][] = [];
  for (let start = 0; start < rows.length; start += CARDS_PER_PART) parts.push(rows.slice(start, start + CARDS_PER_PART));
  return parts;
}

interface UserCardProps {
  user: AdminUser;
  selected: boolean;
  /** Null when the staff member may take no bulk action: there is nothing to select for. */
  onSelect: ((ids: string[], on: boolean) => void) | null;
  onMenu: (anchor: HTMLElement, user: AdminUser) => void;
  userPath: (user: Pick<AdminUser, 'id'>) => string;
}

/** One user: drawn again only when its row or its selection changes. */
const UserCard = memo(function UserCard({ user, selected, onSelect, onMenu, userPath }: UserCardProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const name = formatName(user);
  return (
    <Card component="li" variant="outlined" data-testid={`user-card-${user.id}`}>
      <CardContent sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1.5, '&:last-child': { pb: 1.5 } }}>
        {onSelect && (
          <Checkbox
            checked={selected}
            onChange={(event) => onSelect([user.id], event.target.checked)}
            slotProps={{ input: { 'aria-label': t('pages.users.cards.select', { email: user.email }) } }}
            sx={{ mt: -0.5, ml: -1 }}
          />
        )}
        <Box sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, lineHeight: 1.4 }}>
            <Link component={RouterLink} to={userPath(user)} underline="hover">
              {name || user.email}
            </Link>
          </Typography>
          {name && <Typography variant="body2">{user.email}</Typography>}
          <Typography variant="body2" color="text.secondary">
            {[
              t(`pages.users.plans.${user.plan}`),
              t(user.emailVerified ? 'pages.users.cards.verified' : 'pages.users.cards.unverified'),
              // Issue 47: a staff account says which staff roles it has.
              ...STAFF_ROLES.filter((role) => user.roles.includes(role)).map((role) => t(`pages.users.roles.${role}`)),
            ].join(' · ')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('pages.users.cards.registered', { date: formatDate(user.createdAt, language) })}
          </Typography>
        </Box>
        <IconButton
          aria-label={t('pages.users.cards.actionsFor', { email: user.email })}
          aria-haspopup="menu"
          onClick={(event) => onMenu(event.currentTarget, user)}
          sx={{ mt: -0.5, mr: -1 }}
        >
          <MoreVert />
        </IconButton>
      </CardContent>
    </Card>
  );
});
