import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import { accountApi, authProvider, messageKeyOf } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { CODE_LENGTH, CodeInput } from '../../components/form/CodeInput.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { StepLabel } from '../../components/StepLabel.js';
import { afterConfirmation, arrivalState } from '../../routing/guard.js';

/** `/users/confirm`: the 6-digit code from the verification mail signs the new user in. */
export default function ConfirmCode() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // Kept from the first render: the step stays 'Step 3/3' after a wrong code (issue 20 item 11).
  const location = useLocation();
  const [fromRegistration] = useState(() => (location.state as { registration?: boolean } | null)?.registration === true);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [pasteError, setPasteError] = useState<string | undefined>();
  const [resent, setResent] = useState(false);
  const rules = useMemo(
    () => ({
      email: (value: string) => (isValidEmail(value.trim()) ? null : t('validation.invalidEmail')),
      code: (value: string) => (/^\d{6}$/.test(value) ? null : t('validation.codeIncomplete', { count: CODE_LENGTH })),
    }),
    [t],
  );
  const form = useFormFields({ email: searchParams.get('email') ?? '', code: '' }, rules);

  const onSubmit = form.handleSubmit(async ({ email, code }) => {
    setErrorKey(null);
    const result = await authProvider.confirmAccount({ email: email.trim(), code });
    if (!result.success) {
      setErrorKey(result.error?.message ?? 'DEFAULT');
      return;
    }
    void navigate(localize(afterConfirmation(sessionStorage)), { replace: true, state: arrivalState('emailVerified') });
  });

  const resend = async () => {
    setErrorKey(null);
    try {
      await accountApi.resendVerification(form.values.email.trim());
      setResent(true);
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    }
  };

  return (
    <PageCard title={t('pages.confirm.title')}>
      {fromRegistration && <StepLabel step={3} name={t('pages.registration.stepConfirm')} />}
      <Typography sx={{ mb: 2 }}>{t('pages.confirm.intro')}</Typography>
      <ErrorAlert messageKey={errorKey} />
      {resent && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('pages.confirm.resent')}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
        <TextInput {...form.text('email')} id="email" type="email" label={t('pages.login.email')} autoComplete="email" required />
        <CodeInput
          value={form.values.code}
          onChange={(code) => form.setValue('code', code)}
          error={pasteError ?? form.errors.code}
          onPasteError={setPasteError}
          // The address comes filled in from the registration: the code is the one thing left to enter.
          autoFocus={form.values.email !== ''}
        />
        <Button type="submit" variant="contained" size="large">
          {t('pages.confirm.submit')}
        </Button>
        <Button variant="text" onClick={() => void resend()} disabled={!isValidEmail(form.values.email.trim())}>
          {t('pages.confirm.resend')}
        </Button>
      </Box>
    </PageCard>
  );
}
