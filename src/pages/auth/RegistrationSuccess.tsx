import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { signInAddressFor } from '../../routing/guard.js';
import { paths } from '../../routing/paths.js';

/**
 * `/registration/success`: where the verification link lands once the address is verified in a browser that
 * did not register (in the one that did, the link signs in, src/pages/auth/VerifyEmail.tsx). Signing in here
 * continues where the code and that link end: choose-plan (issue 48 item 5).
 */
export default function RegistrationSuccess() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  return (
    <PageCard title={t('pages.registrationSuccess.title')}>
      <Alert severity="success" role="status" sx={{ mb: 2 }}>
        {t('pages.registrationSuccess.verified')}
      </Alert>
      <Typography sx={{ mb: 3 }}>{t('pages.registrationSuccess.next')}</Typography>
      <Button component={RouterLink} to={localize(signInAddressFor(paths.choosePlan, paths.choosePlan))} variant="contained">
        {t('pages.registrationSuccess.signIn')}
      </Button>
    </PageCard>
  );
}
