import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import { accountApi, authProvider, messageKeyOf } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { afterConfirmation, arrivalState } from '../../routing/guard.js';
import { paths } from '../../routing/paths.js';

/** A link that can no longer verify (made up, cut short, or too old): the page offers a new one. */
const RESENDABLE = new Set(['VERIFICATION_LINK_INVALID', 'VERIFICATION_CODE_EXPIRED']);

/**
 * `/users/validate/{token}`: the link from the verification mail (spec section 2). Opened in the browser
 * that registered (or asked for the mail), it signs in and ends where the code ends: choose-plan or the
 * checkout chosen first, saying the address is verified (issue 48 item 5). Anywhere else it verifies, and
 * the registration's success page asks to sign in.
 */
export default function VerifyEmail() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { token = '' } = useParams();
  const [outcome, setOutcome] = useState<'pending' | 'verified' | 'signedIn' | string>('pending');

  useEffect(() => {
    let cancelled = false;
    authProvider.verifyEmailLink(token).then(
      ({ signedIn }) => !cancelled && setOutcome(signedIn ? 'signedIn' : 'verified'),
      (error: unknown) => !cancelled && setOutcome(messageKeyOf(error)),
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  if (outcome === 'pending') return <FullPageSpinner />;
  if (outcome === 'signedIn') return <Navigate to={localize(afterConfirmation(sessionStorage))} replace state={arrivalState('emailVerified')} />;
  if (outcome === 'verified') return <Navigate to={localize(paths.registrationSuccess)} replace />;
  const signIn = outcome === 'ALREADY_VERIFIED';
  return (
    <PageCard title={t('pages.verifyEmail.title')}>
      {outcome === 'ALREADY_VERIFIED' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('errors.ALREADY_VERIFIED')}
        </Alert>
      )}
      {!signIn && <ErrorAlert messageKey={outcome} />}
      {RESENDABLE.has(outcome) ? (
        <ResendVerification />
      ) : (
        <Button component={RouterLink} to={localize(signIn ? paths.login : paths.confirmCode())} variant="contained">
          {signIn ? t('pages.login.submit') : t('pages.verifyEmail.enterCode')}
        </Button>
      )}
    </PageCard>
  );
}

/**
 * The link names no address we could trust, so the user gives theirs; the answer is the same for every
 * address (no enumeration), and the new mail carries a code, entered on /users/confirm.
 */
function ResendVerification() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [sent, setSent] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const resend = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    setInvalid(!isValidEmail(address));
    if (!isValidEmail(address)) return;
    setErrorKey(null);
    try {
      await accountApi.resendVerification(address);
      setSent(true);
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    }
  };

  if (sent) {
    return (
      <>
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('pages.verifyEmail.resent')}
        </Alert>
        <Button component={RouterLink} to={localize(paths.confirmCode(email.trim()))} variant="contained">
          {t('pages.verifyEmail.enterCode')}
        </Button>
      </>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={(event) => void resend(event)} sx={{ display: 'grid', gap: 2 }}>
      <ErrorAlert messageKey={errorKey} />
      <TextField
        id="resend-email"
        type="email"
        label={t('pages.login.email')}
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={invalid}
        helperText={invalid ? t('validation.invalidEmail') : undefined}
      />
      <Button type="submit" variant="contained">
        {t('pages.verifyEmail.resend')}
      </Button>
    </Box>
  );
}
