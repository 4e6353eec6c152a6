import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { isStrongEnough } from '../../../contract/password.js';
import { messageKeyOf } from '../../../providers/index.js';
import { accountApi } from '../../../providers/index.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { isCommonPassword, PasswordStrengthHint, usePasswordStrength } from '../../components/form/PasswordStrengthHint.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { paths } from '../../routing/paths.js';

type State = 'checking' | 'invalid' | 'ready' | 'done';

/** `/forgot-password/validate/{token}`: the mailed link, checked first, then the new password. */
export default function ResetPassword() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { token = '' } = useParams();
  const [state, setState] = useState<State>('checking');
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const rules = useMemo(
    () => ({
      password: (value: string) => (isStrongEnough(value) ? null : t('validation.passwordRule')),
      confirmation: (value: string, values: { password: string }) =>
        value === values.password ? null : t('validation.passwordsDiffer'),
    }),
    [t],
  );
  const form = useFormFields({ password: '', confirmation: '' }, rules);
  const strength = usePasswordStrength(form.values.password);

  useEffect(() => {
    let cancelled = false;
    accountApi.checkResetToken(token).then(
      (result) => !cancelled && setState(result.valid ? 'ready' : 'invalid'),
      () => !cancelled && setState('invalid'),
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setErrorKey(null);
    if (await isCommonPassword(password)) {
      form.setError('password', t('errors.PASSWORD_TOO_COMMON'));
      return;
    }
    try {
      await accountApi.resetPassword(token, password);
      setState('done');
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    }
  });

  if (state === 'checking') return <FullPageSpinner />;
  return (
    <PageCard title={t('pages.resetPassword.title')}>
      {state === 'invalid' && (
        <>
          <ErrorAlert messageKey="INVALID_PASSWORD_TOKEN" />
          <Link component={RouterLink} to={localize(paths.forgotPassword)}>
            {t('pages.resetPassword.requestNew')}
          </Link>
        </>
      )}
      {state === 'done' && (
        <>
          <Alert severity="success" role="status" sx={{ mb: 2 }}>
            {t('pages.resetPassword.done')}
          </Alert>
          <Button component={RouterLink} to={localize(paths.login)} variant="contained">
            {t('pages.login.submit')}
          </Button>
        </>
      )}
      {state === 'ready' && (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
          <ErrorAlert messageKey={errorKey} />
          <TextInput
            {...form.text('password')}
            id="new-password"
            type="password"
            label={t('pages.resetPassword.newPassword')}
            autoComplete="new-password"
            helperText={<PasswordStrengthHint strength={strength} />}
            required
          />
          <TextInput
            {...form.text('confirmation')}
            id="confirm-password"
            type="password"
            label={t('pages.resetPassword.confirmPassword')}
            autoComplete="new-password"
            required
          />
          <Button type="submit" variant="contained" size="large">
            {t('pages.resetPassword.submit')}
          </Button>
        </Box>
      )}
    </PageCard>
  );
}
