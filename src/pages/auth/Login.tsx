import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/LocaleScope.js';
import { SocialButtons } from '../../components/SocialButtons.js';
import { SignInForm } from './SignInForm.js';
import { paths } from '../../routing/paths.js';

export default function Login() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  // After deleting the account (issue 17) the user lands here with `?deleted=1`.
  const [search] = useSearchParams();
  const deleted = search.get('deleted') === '1';
  return (
    <SignInForm
      admin={false}
      title={t('pages.login.title')}
      submitLabel={t('pages.login.submit')}
      footer={
        <>
          {deleted && (
            <Alert severity="info" role="status" sx={{ mb: 2 }}>
              {t('pages.login.accountDeleted')}
            </Alert>
          )}
          <SocialButtons />
          <Stack spacing={1} sx={{ mt: 3 }}>
            <Link component={RouterLink} to={localize(paths.forgotPassword)}>
              {t('pages.login.forgotPassword')}
            </Link>
            <Typography>
              {t('pages.login.noAccount')}{' '}
              <Link component={RouterLink} to={localize(paths.registration)}>
                {t('pages.login.createAccount')}
              </Link>
            </Typography>
          </Stack>
        </>
      }
    />
  );
}
