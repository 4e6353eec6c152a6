import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import { isStrongEnough } from '../../../contract/password.js';
import { messageKeyOf } from '../../../providers/index.js';
import { accountApi } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { PasswordInput } from '../../components/form/PasswordInput.js';
import { isCommonPassword, PasswordStrengthHint, usePasswordStrength } from '../../components/form/PasswordStrengthHint.js';
import { TextInput } from '../../components/form/TextInput.js';
import { useFormFields } from '../../components/form/useFormFields.js';
import { useLocale } from '../../components/LocaleScope.js';
import { StepLabel } from '../../components/StepLabel.js';
import { paths } from '../../routing/paths.js';

export interface RegistrationValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  couponCode: string;
  newsletter: boolean;
  privacyAccepted: boolean;
}

const DETAILS: readonly (keyof RegistrationValues)[] = ['firstName', 'lastName', 'email', 'password'];
/** Server answers that concern a field of the first step send the visitor back to it. */
const FIRST_STEP_ERRORS = new Set(['EMAIL_ALREADY_REGISTERED', 'EMAIL_VERIFICATION_FAILED', 'PASSWORD_TOO_WEAK', 'PASSWORD_TOO_COMMON', 'VALIDATION_FAILED']);

/**
 * The sign-up form of /registration and /registration/siggraph2023 (and, later, the checkout's
 * registration tab): details first, then coupon, newsletter and the agreements; the validation texts
 * of spec section 5. `onRegistered` receives the address the code was sent to.
 */
export function RegistrationForm(props: {
  source: 'web' | 'siggraph2023';
  external: boolean;
  onRegistered: (email: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const { localize } = useLocale();
  const [step, setStep] = useState<1 | 2>(1);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const rules = useMemo(
    () => ({
      firstName: (value: string) => (value.trim() === '' ? t('validation.firstNameRequired') : null),
      lastName: (value: string) => (value.trim() === '' ? t('validation.lastNameRequired') : null),
      email: (value: string) => {
        if (value.trim() === '') return t('validation.emailRequiredRegistration');
        return isValidEmail(value.trim()) ? null : t('validation.invalidEmailRegistration');
      },
      password: (value: string) => (isStrongEnough(value) ? null : t('validation.passwordRule')),
      privacyAccepted: (value: boolean) => (value ? null : t('validation.privacyRequired')),
    }),
    [t],
  );
  const form = useFormFields<RegistrationValues>(
    { firstName: '', lastName: '', email: '', password: '', couponCode: '', newsletter: false, privacyAccepted: false },
    rules,
  );

  const strength = usePasswordStrength(form.values.password);

  // A password from the common-password list stops the first step, as the server would (issue 44).
  const toPreferences = form.handleSubmit(async (values) => {
    setErrorKey(null);
    if (await isCommonPassword(values.password)) {
      form.setError('password', t('errors.PASSWORD_TOO_COMMON'));
      return;
    }
    setStep(2);
  }, DETAILS);

  const onSubmit = form.handleSubmit(async (values) => {
    setErrorKey(null);
    setPending(true);
    try {
      const email = values.email.trim();
      await accountApi.register(
        {
          email,
          password: values.password,
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          newsletter: values.newsletter,
          couponCode: values.couponCode.trim() || null,
          privacyAccepted: true,
          source: props.source,
          language: i18n.language === 'de' ? 'de' : 'en',
        },
        { external: props.external },
      );
      props.onRegistered(email);
    } catch (error) {
      const key = messageKeyOf(error);
      setErrorKey(key);
      if (FIRST_STEP_ERRORS.has(key)) setStep(1);
    } finally {
      setPending(false);
    }
  });

  const privacyError = form.errors.privacyAccepted;
  const legalLink = (path: string, label: string) => (
    <Link component={RouterLink} to={localize(path)} target="_blank" rel="noopener">
      {label}
    </Link>
  );

  return (
    <>
      <ErrorAlert messageKey={errorKey} />
      {errorKey === 'EMAIL_ALREADY_REGISTERED' && (
        <Typography sx={{ mb: 2 }}>
          <Link component={RouterLink} to={localize(paths.login)}>
            {t('pages.registration.signIn')}
          </Link>
          {' · '}
          <Link component={RouterLink} to={localize(paths.forgotPassword)}>
            {t('pages.registration.forgotPassword')}
          </Link>
        </Typography>
      )}
      {step === 1 ? (
        <Box component="form" noValidate onSubmit={(event) => void toPreferences(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.registration.stepDetails')}>
          <StepLabel step={1} name={t('pages.registration.stepDetails')} />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            <TextInput {...form.text('firstName')} id="first-name" label={t('pages.registration.firstName')} autoComplete="given-name" required />
            <TextInput {...form.text('lastName')} id="last-name" label={t('pages.registration.lastName')} autoComplete="family-name" required />
          </Box>
          <TextInput {...form.text('email')} id="email" type="email" label={t('pages.registration.email')} autoComplete="email" required />
          <PasswordInput
            {...form.text('password')}
            id="password"
            label={t('pages.registration.password')}
            autoComplete="new-password"
            helperText={<PasswordStrengthHint strength={strength} />}
            required
          />
          <Button type="submit" variant="contained" size="large">
            {t('pages.registration.next')}
          </Button>
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.registration.stepPreferences')}>
          <StepLabel step={2} name={t('pages.registration.stepPreferences')} />
          <TextInput
            {...form.text('couponCode')}
            id="coupon-code"
            label={t('pages.registration.couponCode')}
            helperText={t('pages.registration.couponHelp')}
            autoComplete="off"
          />
          <FormControlLabel control={<Checkbox {...form.checkbox('newsletter')} />} label={t('pages.registration.newsletter')} />
          <FormControl error={Boolean(privacyError)} required>
            <FormControlLabel
              control={
                <Checkbox
                  {...form.checkbox('privacyAccepted')}
                  inputProps={{ 'aria-describedby': privacyError ? 'privacy-helper' : undefined }}
                />
              }
              label={
                <>
                  {t('pages.registration.acceptBefore')}
                  {legalLink(paths.privacyPolicy, t('pages.registration.privacyPolicy'))}
                  {t('pages.registration.acceptBetween')}
                  {legalLink(paths.terms, t('pages.registration.terms'))}
                  {t('pages.registration.acceptAnd')}
                  {legalLink(`${paths.terms}#eula`, t('pages.registration.eula'))}
                  {t('pages.registration.acceptAfter')}
                </>
              }
            />
            {privacyError && <FormHelperText id="privacy-helper">{privacyError}</FormHelperText>}
          </FormControl>
          <Box sx={{ display: 'flex', gap: 2, justifyContent: 'space-between' }}>
            <Button variant="outlined" size="large" onClick={() => setStep(1)}>
              {t('pages.registration.back')}
            </Button>
            <Button type="submit" variant="contained" size="large" disabled={pending}>
              {t('pages.registration.submit')}
            </Button>
          </Box>
        </Box>
      )}
    </>
  );
}
