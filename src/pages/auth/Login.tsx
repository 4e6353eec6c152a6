import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/LocaleScope.js';
import { SocialButtons } from '../../components/SocialButtons.js';
import { SignInForm } from './SignInForm.js';

export default function Login() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  return (
    <SignInForm
      admin={false}
      title={t('pages.login.title')}
      submitLabel={t('pages.login.submit')}
      footer={
        <>
          <SocialButtons />
          <Stack spacing={1} sx={{ mt: 3 }}>
            <Link component={RouterLink} to={localize('/forgot-password')}>
              {t('pages.login.forgotPassword')}
            </Link>
            <Typography>
              {t('pages.login.noAccount')}{' '}
              <Link component={RouterLink} to={localize('/registration')}>
                {t('pages.login.createAccount')}
              </Link>
            </Typography>
          </Stack>
        </>
      }
    />
  );
}
