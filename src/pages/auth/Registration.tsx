import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { SocialButtons } from '../../components/SocialButtons.js';
import { RegistrationForm } from './RegistrationForm.js';
import { paths } from '../../routing/paths.js';

/** `/registration` and `/registration/siggraph2023`: the same form, the latter recorded as the sign-up source. */
function RegistrationPage({ source }: { source: 'web' | 'siggraph2023' }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  return (
    <PageCard title={t('pages.registration.title')}>
      {source === 'siggraph2023' && <Typography sx={{ mb: 2 }}>{t('pages.registration.siggraphIntro')}</Typography>}
      <RegistrationForm
        source={source}
        external={false}
        onRegistered={(email) =>
          void navigate(localize(paths.confirmCode(email)), { state: { registration: true } })
        }
      />
      <SocialButtons />
      <Typography sx={{ mt: 3 }}>
        {t('pages.registration.haveAccount')}{' '}
        <Link component={RouterLink} to={localize(paths.login)}>
          {t('pages.registration.signIn')}
        </Link>
      </Typography>
    </PageCard>
  );
}

/**
 * Both addresses load this one module (one chunk: the SIGGRAPH address stays within the sign-in pages'
 * 160 KB), and the address says the source.
 */
export default function Registration() {
  const { pathname } = useLocation();
  return <RegistrationPage source={pathname.endsWith(paths.registrationSiggraph) ? 'siggraph2023' : 'web'} />;
}
