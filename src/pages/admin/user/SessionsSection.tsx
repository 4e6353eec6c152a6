import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import type { StaffPowers } from '../users/useStaffPowers.js';
import type { UserAction } from './actions.js';
import { Empty, Item, Items, Section } from './Section.js';

/** Where the user is signed in now, and ending all of it (their next request is refused). */
export function SessionsSection({ detail, onAction, allowed }: { detail: AdminUserDetail; onAction: (action: UserAction) => void; allowed: StaffPowers }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { sessions } = detail;
  return (
    <Section
      title={t('adminUser:sessions.title', { count: sessions.length })}
      testId="user-sessions"
      actions={
        sessions.length > 0 &&
        allowed.endSessions && (
          <Button variant="outlined" size="small" color="error" onClick={() => onAction({ kind: 'endSessions', count: sessions.length })}>
            {t('adminUser:actions.endSessions.button')}
          </Button>
        )
      }
    >
      {sessions.length === 0 ? (
        <Empty>{t('adminUser:sessions.empty')}</Empty>
      ) : (
        <Items label={t('adminUser:sessions.title', { count: sessions.length })}>
          {sessions.map((session) => (
            <Item key={session.id}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {[session.browser, session.os].filter(Boolean).join(', ') || t('adminUser:sessions.unknownClient')}
                {session.address && ` · ${session.address}`}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                {t('adminUser:sessions.times', {
                  signedIn: formatDateTime(session.createdAt, language),
                  active: formatDateTime(session.lastActiveAt, language),
                  expires: formatDateTime(session.expiresAt, language),
                })}
              </Typography>
            </Item>
          ))}
        </Items>
      )}
    </Section>
  );
}
