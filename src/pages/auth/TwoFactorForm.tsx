import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { recoveryCodeOf, totpCodeOf, type TwoFactorMethod } from '../../../contract/two-factor-values.js';
import type { TwoFactorStep } from '../../../providers/authProvider.js';
import { authProvider } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { TextInput } from '../../components/form/TextInput.js';
import { supportsPasskeys } from '../../passkeys/support.js';
import './twoFactorTexts.js';
import { useSignIn, type SignInOutcome } from './useSignIn.js';

type Mode = TwoFactorMethod;

/** The way offered first: the authenticator app, else a passkey, else a recovery code (always there). */
function firstMode(methods: readonly TwoFactorMethod[]): Mode {
  if (methods.includes('totp')) return 'totp';
  if (methods.includes('passkey') && supportsPasskeys()) return 'passkey';
  return 'recovery';
}

export interface TwoFactorFormProps {
  step: TwoFactorStep;
  /** The second step succeeded: the session has started. */
  onSignedIn: () => void;
  /** Back to the first step, with the reason when there is one (TWO_FACTOR_CHALLENGE_EXPIRED). */
  onRestart: (messageKey: string | null) => void;
}

/**
 * The second step of a sign-in (issue 44), on /login, /admin/login and the Google and Facebook callback: a
 * code from the authenticator app, or one of the recovery codes, or one of the account's passkeys. Its own
 * chunk, loaded when an account asks for it (the sign-in pages keep their JavaScript budget). A wrong code
 * is said under the field and can be tried again; a challenge that expired or had too many tries sends the
 * person back to the first step with the reason.
 */
export default function TwoFactorForm({ step, onSignedIn, onRestart }: TwoFactorFormProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>(() => firstMode(step.methods));
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const { attempt, pending } = useSignIn();
  const field = useRef<HTMLInputElement | null>(null);
  const passkeyButton = useRef<HTMLButtonElement | null>(null);

  // The one thing to do next takes the focus: the field, or the passkey button.
  useEffect(() => {
    (mode === 'passkey' ? passkeyButton.current : field.current)?.focus();
  }, [mode]);

  const settle = (outcome: SignInOutcome | null) => {
    if (outcome === null) return;
    if (outcome.signedIn) {
      onSignedIn();
      return;
    }
    const messageKey = 'messageKey' in outcome ? outcome.messageKey : 'DEFAULT';
    if (messageKey === 'TWO_FACTOR_CHALLENGE_EXPIRED') {
      onRestart(messageKey);
      return;
    }
    setErrorKey(messageKey);
    setTyped('');
    (mode === 'passkey' ? passkeyButton.current : field.current)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const code = mode === 'totp' ? totpCodeOf(typed) : recoveryCodeOf(typed);
    if (code === null) {
      setFieldError(t(mode === 'totp' ? 'twoFactorSignIn:codeInvalid' : 'twoFactorSignIn:recoveryInvalid'));
      field.current?.focus();
      return;
    }
    setFieldError(undefined);
    setErrorKey(null);
    settle(await attempt(() => authProvider.completeTwoFactor(step, mode === 'totp' ? { code } : { recoveryCode: code })));
  };

  const answerWithAPasskey = async () => {
    setErrorKey(null);
    const { answerWithPasskey } = await import('./passkeySignIn.js');
    settle(await attempt(() => answerWithPasskey(step)));
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setTyped('');
    setFieldError(undefined);
    setErrorKey(null);
  };
  const others = (['totp', 'passkey', 'recovery'] as const).filter(
    (method) => method !== mode && (method === 'recovery' || step.methods.includes(method)) && (method !== 'passkey' || supportsPasskeys()),
  );
  const switchLabel = { totp: 'twoFactorSignIn:useApp', passkey: 'twoFactorSignIn:usePasskey', recovery: 'twoFactorSignIn:useRecovery' } as const;

  return (
    <Box data-testid="two-factor-step">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('twoFactorSignIn:title')}
      </Typography>
      <ErrorAlert messageKey={errorKey} />
      {mode === 'passkey' ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Typography>{t('twoFactorSignIn:passkeyIntro')}</Typography>
          <Button ref={passkeyButton} variant="contained" size="large" disabled={pending} onClick={() => void answerWithAPasskey()}>
            {t('twoFactorSignIn:passkeyButton')}
          </Button>
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }}>
          <Typography>{t(mode === 'totp' ? 'twoFactorSignIn:codeIntro' : 'twoFactorSignIn:recoveryIntro')}</Typography>
          <TextInput
            key={mode}
            id={mode === 'totp' ? 'two-factor-code' : 'recovery-code'}
            name={mode === 'totp' ? 'code' : 'recoveryCode'}
            label={t(mode === 'totp' ? 'twoFactorSignIn:code' : 'twoFactorSignIn:recovery')}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (fieldError) setFieldError(undefined);
            }}
            errorText={fieldError}
            inputRef={(element) => {
              field.current = element;
            }}
            autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
            inputProps={mode === 'totp' ? { inputMode: 'numeric', maxLength: 7, spellCheck: false } : { maxLength: 64, spellCheck: false, autoCapitalize: 'off' }}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={pending}>
            {t('twoFactorSignIn:verify')}
          </Button>
        </Box>
      )}
      <Stack role="group" aria-label={t('twoFactorSignIn:otherWays')} spacing={1} sx={{ mt: 2, alignItems: 'flex-start' }}>
        {others.map((method) => (
          <Button key={method} variant="text" disabled={pending} onClick={() => switchTo(method)}>
            {t(switchLabel[method])}
          </Button>
        ))}
        <Button variant="text" disabled={pending} onClick={() => onRestart(null)}>
          {t('twoFactorSignIn:startOver')}
        </Button>
      </Stack>
    </Box>
  );
}
