import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useGetIdentity, useOne } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { AdminUserDetail, Me } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../providers/errors.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { formatLongDate, formatName, formatPrice } from '../../format/index.js';
import type { PageProps } from '../index.js';
import { textKeyOf, type UserAction } from './user/actions.js';
import './user/texts.js';
import { CouponsSection, DevicesSection, LicencesSection } from './user/LicensingSections.js';
import { PaymentsSection } from './user/PaymentsSection.js';
import { ProfileSection } from './user/ProfileSection.js';
import { SessionsSection } from './user/SessionsSection.js';
import { SubscriptionSection } from './user/SubscriptionSection.js';
import { Timeline } from './user/Timeline.js';
import { useUserActions } from './user/useUserActions.js';
import { RolesDialog } from './users/RolesDialog.js';
import { useStaffPowers } from './users/useStaffPowers.js';
import './adminTexts.js';
import { paths } from '../../routing/paths.js';

/** The values an action's confirmation and outcome texts name. */
function textValues(action: UserAction, email: string): Record<string, string | number> {
  switch (action.kind) {
    case 'endSessions':
      return { email, count: action.count };
    case 'cancel':
      return action.refund ? { email, amount: action.amount } : { email, date: action.endsAt ?? '' };
    case 'release':
      return { email, name: action.name, computerId: action.computerId };
    default:
      return { email };
  }
}

/** The page of a user found, with its actions and their confirmation. */
function UserDetail({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { data: me } = useGetIdentity<Me>();
  const [confirming, setConfirming] = useState<UserAction | null>(null);
  const { run, busy } = useUserActions(detail.user);
  // Issue 47: each action shows only to staff who may take it (support: no money, roles or deletions).
  const allowed = useStaffPowers();
  // The staff roles are chosen in a dialog of their own, which is their confirmation.
  const choosingRoles = confirming?.kind === 'setRoles';
  const asked = choosingRoles ? null : confirming;
  const key = asked && `adminUser:actions.${textKeyOf(asked)}`;
  const values = confirming ? textValues(confirming, detail.user.email) : {};
  // A cancellation's date in the reader's format.
  if (confirming?.kind === 'cancel' && !confirming.refund && confirming.endsAt) values.date = formatLongDate(confirming.endsAt, language);
  const name = formatName(detail.user);
  const standing = detail.chargebacks.filter((chargeback) => chargeback.reversedAt === null);

  return (
    <PageCard title={detail.user.email} testId="admin-user" wide>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {name ? t('adminUser:subtitle', { name }) : t('adminUser:subtitleNoName')}
      </Typography>
      {/* Issue 46 item 9: a bank took a payment back; what it bought has been taken back. */}
      {standing.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="admin-user-chargeback">
          {standing
            .map((chargeback) =>
              t(chargeback.subscriptionId ? 'adminUser:chargeback.subscription' : 'adminUser:chargeback.licence', {
                amount: formatPrice(chargeback.amount.amount, chargeback.amount.currencyCode, language),
                date: formatLongDate(chargeback.createdAt, language),
              }),
            )
            .join(' ')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <ProfileSection detail={detail} selfId={me?.id} onAction={setConfirming} allowed={allowed} />
          <SubscriptionSection detail={detail} onAction={setConfirming} allowed={allowed} />
          <PaymentsSection detail={detail} allowed={allowed} />
          <LicencesSection detail={detail} />
          <DevicesSection detail={detail} onAction={setConfirming} allowed={allowed} />
          <CouponsSection detail={detail} />
          <SessionsSection detail={detail} onAction={setConfirming} allowed={allowed} />
        </Box>
        <Timeline userId={detail.user.id} />
      </Box>
      <RolesDialog
        user={choosingRoles ? detail.user : null}
        selfId={me?.id}
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={(roles) => run({ kind: 'setRoles', roles }, () => setConfirming(null))}
      />
      <ConfirmDialog
        open={asked !== null}
        title={key ? t(`${key}.title`, values) : ''}
        confirmLabel={key ? t(`${key}.confirm`, values) : ''}
        cancelLabel={t('adminUser:actions.keep')}
        destructive={asked !== null && !(asked.kind === 'roles' && asked.roles.includes('admin')) && asked.kind !== 'resendVerification' && asked.kind !== 'viewAs'}
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => asked && run(asked, () => setConfirming(null))}
      >
        {key ? t(`${key}.text`, values) : ''}
      </ConfirmDialog>
    </PageCard>
  );
}

/**
 * `/admin/users/{id}` (issue 21): one account as support needs it, the show page of Refine's `users`
 * (`GET /users/{id}`): who they are, how they sign in, their sessions, subscription, payments, licences,
 * devices, coupons and Lite keys beside the timeline of everything that happened to the account, and
 * what support may do about it, each confirmed first. An unknown id says so under its own heading.
 */
export default function UserShowPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { id } = useParams<{ id: string }>();
  // Refine's show of the `users` record (useOne, as useShow would call it: the id comes from the address).
  const { query, result } = useOne<AdminUserDetail, DataError>({ resource: 'users', id: id ?? '', errorNotification: false, liveMode: 'off', queryOptions: { enabled: id !== undefined } });

  if (query.isPending) return <FullPageSpinner />;
  if (query.isError || !result) {
    const missing = query.error?.statusCode === 404 || query.error?.statusCode === 400;
    return (
      <PageCard title={missing ? t('adminUser:notFound.title') : t(titleKey)} testId="admin-user-missing">
        {missing ? <Typography sx={{ mb: 2 }}>{t('adminUser:notFound.text')}</Typography> : <ErrorAlert messageKey={messageKeyOf(query.error)} />}
        <Button component={RouterLink} to={localize(paths.users)} variant="contained">
          {t('adminUser:notFound.back')}
        </Button>
      </PageCard>
    );
  }
  return <UserDetail detail={result} />;
}
