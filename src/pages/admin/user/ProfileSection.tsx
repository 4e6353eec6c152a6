import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime, formatName } from '../../../format/index.js';
import { isStaff, STAFF_ROLES } from '../../../../contract/roles.js';
import type { StaffPowers } from '../users/useStaffPowers.js';
import type { UserAction } from './actions.js';
import { Facts, Section } from './Section.js';

/**
 * Who the person is: name, address, verification (with a resend), roles (with a change), how they sign in
 * and whether with a second factor (with its reset, issue 44). Issue 47: a staff account is marked; support
 * views a customer's account as they see it; each action shows only to staff who may take it.
 */
export function ProfileSection({
  detail,
  selfId,
  onAction,
  allowed,
}: {
  detail: AdminUserDetail;
  selfId: string | undefined;
  onAction: (action: UserAction) => void;
  allowed: StaffPowers;
}) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { user, signInMethods } = detail;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, language) : t('adminUser:never'));
  const yesNo = (value: boolean) => t(value ? 'pages.users.yes' : 'pages.users.no');
  const isAdmin = user.roles.includes('admin');
  const staff = isStaff(user.roles);
  const methods = (['password', 'google', 'facebook'] as const).filter((method) => signInMethods[method]);

  return (
    <Section title={t('adminUser:profile.title')} testId="user-profile">
      <Facts
        items={[
          [t('adminUser:profile.name'), formatName(user) || '—'],
          [t('adminUser:profile.email'), user.email],
          [t('pages.users.userId'), <span style={{ fontFamily: 'monospace' }}>{user.id}</span>],
          [
            t('adminUser:profile.verification'),
            user.emailVerifiedAt ? t('adminUser:profile.verifiedOn', { date: when(user.emailVerifiedAt) }) : t('adminUser:profile.unverified'),
          ],
          [t('adminUser:profile.registered'), when(user.createdAt)],
          [t('adminUser:profile.source'), user.signupSource ? t(`adminUser:sources.${user.signupSource}`, { defaultValue: user.signupSource }) : '—'],
          [t('adminUser:profile.phone'), user.phone ?? '—'],
          [t('adminUser:profile.country'), user.country ?? '—'],
          [t('adminUser:profile.language'), t(`languages.${user.language}`)],
          [t('adminUser:profile.newsletter'), yesNo(user.newsletter)],
          [t('adminUser:profile.downloaded'), when(user.downloadedAt)],
          [t('adminUser:profile.lastLaunched'), when(user.lastLaunchedAt)],
          [
            t('adminUser:profile.signInMethods'),
            methods.length > 0 ? methods.map((method) => t(`adminUser:methods.${method}`)).join(', ') : t('adminUser:profile.noSignInMethod'),
          ],
          [t('adminUser:profile.twoFactor'), t(detail.signInMethods.twoFactor ? 'adminUser:profile.twoFactorOn' : 'adminUser:profile.twoFactorOff')],
          [
            t('pages.users.rolesLabel'),
            <Stack direction="row" spacing={1} component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap' }}>
              {user.roles.map((role) => (
                <Chip key={role} size="small" label={t(`pages.users.roles.${role}`, { defaultValue: role })} color={role === 'admin' ? 'secondary' : 'default'} />
              ))}
              {staff && <Chip size="small" variant="outlined" color="warning" label={t('adminUser:profile.staffAccount')} data-testid="staff-account" />}
            </Stack>,
          ],
        ]}
      />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 2 }}>
        {allowed.viewAs && !staff && (
          <Button variant="contained" size="small" onClick={() => onAction({ kind: 'viewAs' })}>
            {t('adminUser:actions.viewAs.button')}
          </Button>
        )}
        {allowed.resendVerification && !user.emailVerified && (
          <Button variant="outlined" size="small" onClick={() => onAction({ kind: 'resendVerification' })}>
            {t('adminUser:actions.resendVerification.button')}
          </Button>
        )}
        {allowed.resetTwoFactor && detail.signInMethods.twoFactor && (
          <Button variant="outlined" size="small" color="error" onClick={() => onAction({ kind: 'resetTwoFactor' })}>
            {t('adminUser:actions.resetTwoFactor.button')}
          </Button>
        )}
        {!allowed.roles ? null : isAdmin ? (
          // The server refuses both as well (CANNOT_MODIFY_SELF, LAST_ADMIN); one's own role is not offered.
          user.id !== selfId && (
            <Button variant="outlined" size="small" color="error" onClick={() => onAction({ kind: 'roles', roles: user.roles.filter((role) => role !== 'admin') })}>
              {t('adminUser:actions.demote.button')}
            </Button>
          )
        ) : (
          <Button variant="outlined" size="small" onClick={() => onAction({ kind: 'roles', roles: [...user.roles, 'admin'] })}>
            {t('adminUser:actions.promote.button')}
          </Button>
        )}
        {allowed.roles && (
          <Button variant="outlined" size="small" onClick={() => onAction({ kind: 'setRoles', roles: ['user', ...STAFF_ROLES.filter((role) => user.roles.includes(role))] })}>
            {t('adminUser:actions.roles.button')}
          </Button>
        )}
      </Stack>
    </Section>
  );
}
