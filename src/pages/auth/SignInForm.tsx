import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import type { TwoFactorStep } from '../../../providers/authProvider.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { PasswordInput } from '../../components/form/PasswordInput.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { supportsPasskeyAutofill, supportsPasskeys, whenIdle } from '../../passkeys/support.js';
import { ADMIN_HOME_PATH, safeReturnPath } from '../../routing/guard.js';
import { landingOf } from '../../routing/menu.js';
import { preloadable } from '../../routing/preloadable.js';
import { accountApi, authProvider } from '../../../providers/index.js';
import { outcomeOf, useSignIn, type SignInOutcome } from './useSignIn.js';
import { paths } from '../../routing/paths.js';

interface SignInValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

/** The second step's form: its own chunk, loaded when an account asks for it (issue 44). */
const TwoFactorForm = preloadable(() => import('./TwoFactorForm.js')).Component;

/** The passkey autofill's controls (src/pages/auth/passkeySignIn.ts). */
type Autofill = { pause: () => void; resume: () => void; stop: () => void };

/**
 * The sign-in form shared by /login and /admin/login: email and password with the validation texts of
 * spec section 5, remember me for users, and the server's error translated by its messageKey. An account
 * with a second factor continues with a second step here (issue 44; remember me carries over to it), and
 * "Sign in with a passkey" signs in with a passkey alone, as the browser's autofill on the email field does
 * where the browser offers passkeys there. The passkey code loads only when used or offered.
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
  const [step, setStep] = useState<TwoFactorStep | null>(null);
  const { attempt, pending } = useSignIn();
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
  const emailField = useRef<HTMLInputElement | null>(null);

  const signedIn = async () => {
    // Issue 47: staff land on the first admin screen their role may see (the users list, or an analyst's figures).
    const staffLanding = props.admin && props.returnTo === undefined && searchParams.get('to') === null ? landingOf((await authProvider.getIdentity())?.permissions) : ADMIN_HOME_PATH;
    const fallback = props.returnTo ?? (props.admin ? staffLanding : paths.home);
    void navigate(localize(safeReturnPath(searchParams.get('to'), fallback)), { replace: true });
  };

  const settle = (outcome: SignInOutcome | null) => {
    if (outcome === null) return;
    if (outcome.signedIn) void signedIn();
    else if ('twoFactor' in outcome) setStep(outcome.twoFactor);
    else setErrorKey(outcome.messageKey);
  };
  // The autofill settles a sign-in long after this render: it calls the settle of the latest one.
  const settleLatest = useRef(settle);
  settleLatest.current = settle;
  const rememberMe = useRef(form.values.rememberMe);
  rememberMe.current = form.values.rememberMe;

  const onSubmit = form.handleSubmit(async (values) => {
    setErrorKey(null);
    settle(await attempt(() => authProvider.login({ ...values, admin: props.admin })));
  });

  // The browser's passkey autofill on the email field, offered once the page is idle (it loads the passkey code).
  const autofill = useRef<Autofill | null>(null);
  useEffect(() => {
    if (step !== null) return;
    let gone = false;
    const cancelIdle = whenIdle(() => {
      void (async () => {
        if (!(await supportsPasskeyAutofill()) || gone) return;
        const { offerPasskeyAutofill } = await import('./passkeySignIn.js');
        if (gone) return;
        autofill.current = offerPasskeyAutofill({
          admin: props.admin,
          rememberMe: () => rememberMe.current,
          onResult: (result) => settleLatest.current(outcomeOf(result)),
        });
      })().catch(() => undefined);
    });
    return () => {
      gone = true;
      cancelIdle();
      autofill.current?.stop();
      autofill.current = null;
    };
  }, [step, props.admin]);

  const signInWithPasskey = async () => {
    setErrorKey(null);
    autofill.current?.pause();
    const { signInWithPasskey: withPasskey } = await import('./passkeySignIn.js');
    const outcome = await attempt(() => withPasskey({ rememberMe: form.values.rememberMe, admin: props.admin }));
    settle(outcome);
    if (!outcome?.signedIn) autofill.current?.resume();
  };

  /**
   * Spec section 4: an unverified account is offered a new verification email, then the code entry; and the
   * code entry at once, for the code the first mail brought (issue 48 item 6).
   */
  const resendVerification = async () => {
    const email = form.values.email.trim();
    await accountApi.resendVerification(email).catch(() => null);
    void navigate(localize(paths.confirmCode(email)));
  };

  /** Back to the first step: the password again (the challenge is used up), and why, when the server said. */
  const restart = (messageKey: string | null) => {
    setStep(null);
    setErrorKey(messageKey);
    form.setValue('password', '');
  };
  // Back at the first step, the email field has the focus again (the second step had it).
  const returned = useRef(false);
  useEffect(() => {
    if (step !== null) returned.current = true;
    else if (returned.current) emailField.current?.focus();
  }, [step]);

  return (
    <PageCard title={props.title}>
      {step !== null ? (
        <Suspense fallback={<FullPageSpinner minHeight={200} />}>
          <TwoFactorForm step={step} onSignedIn={() => void signedIn()} onRestart={restart} />
        </Suspense>
      ) : (
        <>
          <ErrorAlert messageKey={errorKey} />
          {errorKey === 'USER_NOT_VERIFIED' && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
              <Button variant="contained" component={RouterLink} to={localize(paths.confirmCode(form.values.email.trim()))}>
                {t('pages.login.enterCode')}
              </Button>
              <Button variant="outlined" onClick={() => void resendVerification()}>
                {t('pages.login.resendVerification')}
              </Button>
            </Box>
          )}
          <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
            <TextInput
              {...form.text('email')}
              inputRef={(element) => {
                form.text('email').inputRef(element);
                emailField.current = element;
              }}
              id="email"
              type="email"
              label={t('pages.login.email')}
              // `webauthn`: the browser may offer the account's passkeys in this field's autofill.
              autoComplete="username webauthn"
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
            {supportsPasskeys() && (
              <Button variant="outlined" size="large" disabled={pending} onClick={() => void signInWithPasskey()}>
                {t('pages.login.passkey')}
              </Button>
            )}
          </Box>
          {props.footer}
        </>
      )}
    </PageCard>
  );
}
