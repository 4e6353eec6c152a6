import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import { messageKeyOf } from '../../../providers/index.js';
import { accountApi } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { paths } from '../../routing/paths.js';

/** Forgot password: one answer whether or not the address has an account (no enumeration). */
export default function ForgotPassword() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const [sent, setSent] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const rules = useMemo(
    () => ({ email: (value: string) => (isValidEmail(value.trim()) ? null : t('validation.emailAddressInvalid')) }),
    [t],
  );
  const form = useFormFields({ email: '' }, rules);

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setErrorKey(null);
    setPending(true);
    try {
      await accountApi.requestPasswordReset(email.trim());
      setSent(true);
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    } finally {
      setPending(false);
    }
  });

  return (
    <PageCard title={t('pages.forgotPassword.title')}>
      {sent ? (
        <Alert severity="success" role="status">
          {t('pages.forgotPassword.sent', { email: form.values.email.trim() })}
        </Alert>
      ) : (
        <>
          <Typography sx={{ mb: 2 }}>{t('pages.forgotPassword.intro')}</Typography>
          <ErrorAlert messageKey={errorKey} />
          <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
            <TextInput {...form.text('email')} id="email" type="email" label={t('pages.login.email')} autoComplete="email" required />
            <Button type="submit" variant="contained" size="large" disabled={pending}>
              {t('pages.forgotPassword.submit')}
            </Button>
          </Box>
        </>
      )}
      <Link component={RouterLink} to={localize(paths.login)} sx={{ display: 'inline-block', mt: 3 }}>
        {t('pages.forgotPassword.backToLogin')}
      </Link>
    </PageCard>
  );
}
