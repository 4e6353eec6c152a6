import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { PasswordInput } from '../../components/form/PasswordInput.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { safeReturnPath } from '../../routing/guard.js';
import { accountApi } from '../../../providers/index.js';
import { useSignIn } from './useSignIn.js';

interface SignInValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

/**
 * The sign-in form shared by /login and /admin/login: email and password with the validation texts of
 * spec section 5, remember me for users, and the server's error translated by its messageKey.
 */
export function SignInForm(props: {
  admin: boolean;
  title: string;
  submitLabel: string;
  footer?: ReactNode;
  /** Where to go once signed in (the external checkout continues to its stored checkout). */
  returnTo?: string;
}) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // A failed Google or Facebook sign-in comes back here with its reason (spec section 2).
  const location = useLocation();
  const [errorKey, setErrorKey] = useState<string | null>(() => (location.state as { messageKey?: string } | null)?.messageKey ?? null);
  const { signIn, pending } = useSignIn();
  const rules = useMemo(
    () => ({
      email: (value: string) => {
        if (value.trim() === '') return t('validation.emailRequired');
        return isValidEmail(value.trim()) ? null : t('validation.invalidEmail');
      },
      password: (value: string) => (value === '' ? t('validation.passwordRequired') : null),
    }),
    [t],
  );
  const form = useFormFields<SignInValues>({ email: '', password: '', rememberMe: false }, rules);

  const onSubmit = form.handleSubmit(async (values) => {
    setErrorKey(null);
    const failure = await signIn({ ...values, admin: props.admin });
    if (failure) {
      setErrorKey(failure);
      return;
    }
    const fallback = props.returnTo ?? (props.admin ? '/admin/users' : '/');
    void navigate(localize(safeReturnPath(searchParams.get('to'), fallback)), { replace: true });
  });

  /** Spec section 4: an unverified account is offered a new verification email, then the code entry. */
  const resendVerification = async () => {
    const email = form.values.email.trim();
    await accountApi.resendVerification(email).catch(() => null);
    void navigate(localize(`/users/confirm?email=${encodeURIComponent(email)}`));
  };

  return (
    <PageCard title={props.title}>
      <ErrorAlert messageKey={errorKey} />
      {errorKey === 'USER_NOT_VERIFIED' && (
        <Button variant="outlined" sx={{ mb: 2 }} onClick={() => void resendVerification()}>
          {t('pages.login.resendVerification')}
        </Button>
      )}
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
        <TextInput
          {...form.text('email')}
          id="email"
          type="email"
          label={t('pages.login.email')}
          autoComplete="username"
          required
        />
        <PasswordInput
          {...form.text('password')}
          id="password"
          label={t('pages.login.password')}
          autoComplete="current-password"
          required
        />
        {!props.admin && (
          <FormControlLabel control={<Checkbox {...form.checkbox('rememberMe')} />} label={t('pages.login.rememberMe')} />
        )}
        <Button type="submit" variant="contained" size="large" disabled={pending}>
          {props.submitLabel}
        </Button>
      </Box>
      {props.footer}
    </PageCard>
  );
}
