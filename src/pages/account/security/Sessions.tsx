import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useDelete, useList } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionView } from '../../../../contract/account.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { ResponsiveTable } from '../../../components/ResponsiveTable.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

type Pending = { kind: 'one'; session: SessionView } | { kind: 'others' };

/**
 * The sessions of `/account/security` (issue 17): where the user is signed in, with this device marked;
 * signing one session out, or every other one, after a confirmation. A session signed out here is refused by
 * the server from its next request, so that browser lands on the sign-in page.
 */
export function SessionsSection() {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language } = useLocale();
  const { result, query } = useList<SessionView, DataError>({ resource: 'sessions', pagination: { mode: 'off' } });
  const sessions = query.isSuccess ? result.data : null;
  const [pending, setPending] = useState<Pending | null>(null);
  const { mutate: endOne, mutation: endingOne } = useDelete<SessionView, DataError>();
  const { mutate: endOthers, mutation: endingOthers } = useCustomMutation<{ ended: number }, DataError>();
  const busy = readOnly || endingOne.isPending || endingOthers.isPending;

  // Also after a failure the list is read again: a session may have ended elsewhere in the meantime.
  const settled = { onSettled: () => setPending(null) };
  function confirm(action: Pending) {
    if (action.kind === 'one') {
      endOne({ resource: 'sessions', id: action.session.id, successNotification: () => ({ type: 'success', message: t('pages.security.signedOutOne') }) }, settled);
    } else {
      endOthers(
        {
          url: '/users/me/sessions',
          method: 'delete',
          values: {},
          successNotification: (response) => ({ type: 'success', message: t('pages.security.signedOutOthers', { count: response?.data.ended ?? 0 }) }),
        },
        { onSettled: () => void query.refetch().then(() => setPending(null)) },
      );
    }
  }

  if (query.isLoading) return <FullPageSpinner minHeight={120} />;
  const when = (iso: string) => formatDateTime(iso, language);
  const name = (session: SessionView) => ({ browser: session.browser ?? t('pages.security.unknown'), system: session.os ?? t('pages.security.unknown') });
  const others = sessions?.filter((session) => !session.current) ?? [];

  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('pages.security.intro')}</Typography>
      {sessions && (
        // Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): where and when first, the sign-out
        // button always in view; cards in a narrow box.
        <ResponsiveTable
          label={t('pages.security.tableLabel')}
          rows={sessions}
          rowKey={(session) => session.id}
          rowTestId={(session) => (session.current ? 'session-current' : 'session-other')}
          columns={[
            {
              key: 'browser',
              header: t('pages.security.browser'),
              cell: (session) => (
                <>
                  {/* Issue 47: support's read-only view of the account, not a sign-in of the owner's. */}
                  {session.supportView ? <Chip size="small" color="warning" label={t('pages.security.supportView')} /> : name(session).browser}{' '}
                  {session.current && <Chip size="small" color="primary" label={t('pages.security.thisDevice')} sx={{ ml: 1 }} />}
                </>
              ),
            },
            { key: 'system', header: t('pages.security.system'), cell: (session) => name(session).system },
            { key: 'lastActive', header: t('pages.security.lastActive'), cell: (session) => when(session.lastActiveAt), nowrap: true },
            { key: 'address', header: t('pages.security.address'), cell: (session) => session.address ?? t('pages.security.unknown'), mono: true },
            { key: 'signedIn', header: t('pages.security.signedIn'), cell: (session) => when(session.createdAt), nowrap: true },
            { key: 'expires', header: t('pages.security.expires'), cell: (session) => when(session.expiresAt), nowrap: true },
          ]}
          actionsHeader={t('pages.security.actions')}
          actions={(session) =>
            !session.current && (
              <Button
                size="small"
                color="error"
                disabled={busy}
                onClick={() => setPending({ kind: 'one', session })}
                aria-label={t('pages.security.signOutLabel', name(session))}
              >
                {t('pages.security.signOut')}
              </Button>
            )
          }
        />
      )}
      {sessions && others.length === 0 && <Typography sx={{ mt: 2 }}>{t('pages.security.onlyThis')}</Typography>}
      {others.length > 0 && (
        <Button sx={{ mt: 2 }} variant="outlined" color="error" disabled={busy} onClick={() => setPending({ kind: 'others' })}>
          {t('pages.security.signOutOthers')}
        </Button>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'one' ? t('pages.security.confirmOneTitle', name(pending.session)) : t('pages.security.confirmOthersTitle')}
        confirmLabel={pending?.kind === 'one' ? t('pages.security.signOut') : t('pages.security.signOutOthers')}
        cancelLabel={t('pages.security.keep')}
        busy={busy}
        destructive
        onCancel={() => setPending(null)}
        onConfirm={() => pending && confirm(pending)}
      >
        {pending?.kind === 'one' ? t('pages.security.confirmOneText') : t('pages.security.confirmOthersText')}
      </ConfirmDialog>
    </>
  );
}
