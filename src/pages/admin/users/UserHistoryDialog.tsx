import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useCustom } from '@refinedev/core';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser, AuditEntry } from '../../../../contract/users.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import { messageKeyOf } from '../../../../providers/errors.js';

function roleNames(t: TFunction, roles: unknown): string | null {
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) return null;
  return roles.map((role: string) => t(`pages.users.roles.${role}`, { defaultValue: role })).join(', ');
}

/** One audit entry in words: what changed (roles from and to), or that the account was deleted. */
function describe(t: TFunction, entry: AuditEntry): string {
  if (entry.action === 'user.deleted') return t('pages.users.audit.deleted');
  if (entry.action === 'account.deleted') return t('pages.users.audit.deletedBySelf');
  if (entry.action === 'purchase.duplicate_undone') return t('pages.users.audit.duplicateUndone');
  if (entry.action === 'purchase.refunded') return t('pages.users.audit.refunded');
  if (entry.action === 'two_factor.reset') return t('pages.users.audit.twoFactorReset');
  // Issue 47: a staff member saw the account as its owner does, read-only.
  if (entry.action === 'account.viewed') return t('pages.users.audit.viewed');
  const from = roleNames(t, entry.details.from);
  const to = roleNames(t, entry.details.to);
  return from && to ? t('pages.users.audit.rolesChanged', { from, to }) : t('pages.users.audit.rolesChangedPlain');
}

/** The admin changes made to one user (GET /users/{id}/audit: who, what, when), newest first. */
function AuditTrail({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { query, result } = useCustom<AuditEntry[]>({
    url: `/users/${encodeURIComponent(userId)}/audit`,
    method: 'get',
    errorNotification: false,
    // Another user's trail must never stand in while this one loads.
    queryOptions: { placeholderData: undefined },
  });
  if (query.isError) return <ErrorAlert messageKey={messageKeyOf(query.error)} />;
  if (query.isPending) return <CircularProgress size={24} aria-label={t('common.loading')} />;
  const entries = result.data;
  if (entries.length === 0) return <Typography color="text.secondary">{t('pages.users.audit.empty')}</Typography>;
  return (
    <List dense aria-label={t('pages.users.audit.label')} data-testid="audit-trail">
      {entries.map((entry) => (
        <ListItem key={entry.id} disableGutters>
          <ListItemText
            primary={describe(t, entry)}
            secondary={t('pages.users.audit.byWhom', {
              date: formatDateTime(entry.createdAt, language),
              actor: entry.actorEmail ?? t('pages.users.audit.unknownActor'),
            })}
          />
        </ListItem>
      ))}
    </List>
  );
}

/**
 * The row detail of the users table: the user's id and roles and their audit trail. The content stays
 * while the dialog fades out; the page forgets the user once it has closed (`onExited`).
 */
export function UserHistoryDialog({ user, open, onClose, onExited }: { user: AdminUser | null; open: boolean; onClose: () => void; onExited: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" TransitionProps={{ onExited }}>
      <DialogTitle id={titleId}>{t('pages.users.historyTitle', { email: user?.email ?? '' })}</DialogTitle>
      <DialogContent>
        {user && (
          <>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}>
              <Typography component="dt" color="text.secondary">
                {t('pages.users.userId')}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {user.id}
              </Typography>
              <Typography component="dt" color="text.secondary">
                {t('pages.users.rolesLabel')}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {roleNames(t, user.roles)}
              </Typography>
            </Box>
            <Typography variant="h6" component="h3" gutterBottom>
              {t('pages.users.audit.title')}
            </Typography>
            <AuditTrail userId={user.id} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('pages.users.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
