import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGetIdentity, useInvalidateAuthStore, useUpdate, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import type { TFunction } from 'i18next';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useForm as useHookForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { ProfileUpdate } from '../../../contract/account.js';
import type { Grant } from '../../../contract/licensing.js';
import { isStrongEnough } from '../../../contract/password.js';
import { isValidPhone } from '../../../contract/phone.js';
import type { Me } from '../../../contract/users.js';
import { messageKeyOf } from '../../../providers/http.js';
import { accountApi, authProvider, http } from '../../../providers/index.js';
import { useCountryOptions } from '../../components/countries.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { useLocale } from '../../components/LocaleScope.js';
import { goToProvider, type SocialProvider } from '../../components/social.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { PageCard } from '../../components/PageCard.js';
import { licensingApi } from '../../licensing/api.js';
import type { SocialNotice } from './SocialAccount.js';
import { DeleteMyAccount, DownloadMyData } from './profile/YourData.js';

/** Server answers that belong to one field are shown under it. */
const FIELD_OF_ERROR: Record<string, keyof DetailsValues> = { PHONE_NUMBER_INVALID: 'phone', REGION_NOT_FOUND: 'country' };

interface DetailsValues {
  firstName: string;
  lastName: string;
  phone: string;
  country: string;
  language: 'en' | 'de';
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Divider sx={{ mb: 3 }} />
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** Personal details: Refine's form over `GET/PATCH /users/me`. */
function DetailsForm({ initial, onSaved }: { initial: Me | undefined; onSaved: (user: Me) => void }) {
  const { t, i18n } = useTranslation();
  const [allCountries, setAllCountries] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const {
    refineCore: { query, onFinish, formLoading },
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<Me, HttpError, DetailsValues>({
    refineCoreProps: {
      resource: 'users',
      id: 'me',
      action: 'edit',
      redirect: false,
      // The signed-in frame has just read the current user: the form starts from it, without waiting.
      queryOptions: initial ? { initialData: { data: initial } } : undefined,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: ({ data }) => {
        setSaved(true);
        onSaved(data);
      },
      onMutationError: (error) => {
        const key = messageKeyOf(error);
        const field = FIELD_OF_ERROR[key];
        if (field) setError(field, { message: t(`errors.${key}`) });
        else setErrorKey(key);
      },
    },
    defaultValues: { firstName: '', lastName: '', phone: '', country: '', language: 'en' },
    disableServerSideValidation: true,
  });
  const user = query?.data?.data;
  const country = watch('country');
  const countries = useCountryOptions(i18n.language, allCountries, country);
  if (!user) return <FullPageSpinner />;

  const save = handleSubmit(async (values) => {
    setErrorKey(null);
    setSaved(false);
    const changes: ProfileUpdate = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      phone: values.phone.trim() || null,
      country: values.country || null,
      language: values.language,
    };
    await onFinish(changes as unknown as DetailsValues).catch(() => undefined);
  });

  return (
    <Box component="form" noValidate onSubmit={save} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.details')}>
      <ErrorAlert messageKey={errorKey} />
      {saved && (
        <Alert severity="success" role="status">
          {t('pages.profile.saved')}
        </Alert>
      )}
      <TextField
        id="profile-email"
        label={t('pages.profile.email')}
        value={user.email}
        slotProps={{ input: { readOnly: true } }}
        helperText={t('pages.profile.emailHelp')}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
        <TextField
          id="profile-first-name"
          label={t('pages.profile.firstName')}
          required
          autoComplete="given-name"
          {...register('firstName', { validate: (value) => (value.trim() ? true : t('validation.firstNameRequired')) })}
          error={Boolean(errors.firstName)}
          helperText={errors.firstName?.message}
        />
        <TextField
          id="profile-last-name"
          label={t('pages.profile.lastName')}
          required
          autoComplete="family-name"
          {...register('lastName', { validate: (value) => (value.trim() ? true : t('validation.lastNameRequired')) })}
          error={Boolean(errors.lastName)}
          helperText={errors.lastName?.message}
        />
      </Box>
      <TextField
        id="profile-phone"
        label={t('pages.profile.phone')}
        type="tel"
        autoComplete="tel"
        {...register('phone', {
          validate: (value) => (value.trim() === '' || isValidPhone(value) ? true : t('errors.PHONE_NUMBER_INVALID')),
        })}
        error={Boolean(errors.phone)}
        helperText={errors.phone?.message ?? t('validation.phoneInvalid')}
      />
      <TextField
        id="profile-country"
        label={t('pages.profile.country')}
        select
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        autoComplete="country"
        {...register('country')}
        // Controlled: the chosen option may appear only in the render after the value is set.
        value={country}
        onFocus={() => setAllCountries(true)}
        onMouseDown={() => setAllCountries(true)}
        error={Boolean(errors.country)}
        helperText={errors.country?.message}
      >
        <option value="">{t('pages.profile.noCountry')}</option>
        {countries}
      </TextField>
      <TextField
        id="profile-language"
        label={t('pages.profile.language')}
        select
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        {...register('language')}
      >
        <option value="en">{t('languages.en')}</option>
        <option value="de">{t('languages.de')}</option>
      </TextField>
      <Box>
        <Button type="submit" variant="contained" disabled={formLoading}>
          {t('pages.profile.save')}
        </Button>
      </Box>
    </Box>
  );
}

/** Subscribe or unsubscribe at once: the switch moves right away and moves back if the server refuses. */
function NewsletterSwitch({ user, onSaved }: { user: Me; onSaved: (user: Me) => void }) {
  const { t } = useTranslation();
  const { mutate } = useUpdate<Me>();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [checked, setChecked] = useState(user.newsletter);
  const [changed, setChanged] = useState(false);
  const toggle = (newsletter: boolean) => {
    setErrorKey(null);
    setChecked(newsletter);
    mutate(
      { resource: 'users', id: 'me', values: { newsletter }, successNotification: false, errorNotification: false },
      {
        onSuccess: ({ data }) => {
          setChanged(true);
          setChecked(data.newsletter);
          onSaved(data);
        },
        onError: (error) => {
          setChecked(!newsletter);
          setErrorKey(messageKeyOf(error));
        },
      },
    );
  };
  return (
    <>
      <ErrorAlert messageKey={errorKey} />
      <FormControlLabel
        control={<Switch checked={checked} onChange={(event) => toggle(event.target.checked)} />}
        label={t('pages.profile.newsletterLabel')}
      />
      {changed && (
        <Typography role="status" color="text.secondary">
          {t(checked ? 'pages.profile.subscribed' : 'pages.profile.unsubscribed')}
        </Typography>
      )}
    </>
  );
}

const PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', facebook: 'Facebook' };

/**
 * Connected Google and Facebook accounts: connect goes through the provider; disconnect asks first. Google
 * is unlinked at once; Facebook asks the person to sign in to the linked account once more (spec section 2).
 */
function ConnectedAccounts({ user, onSaved }: { user: Me; onSaved: (user: Me) => void }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const location = useLocation();
  const notice = (location.state as { social?: SocialNotice } | null)?.social;
  const [errorKey, setErrorKey] = useState<string | null>(notice?.messageKey ?? null);
  const [done, setDone] = useState<{ provider: SocialProvider; done: 'connected' | 'disconnected' } | null>(
    notice?.done ? { provider: notice.provider, done: notice.done } : null,
  );
  const [confirming, setConfirming] = useState<SocialProvider | null>(null);
  const [pending, setPending] = useState(false);

  const connect = async (provider: SocialProvider) => {
    setErrorKey(null);
    setPending(true);
    const failure = await goToProvider(localize, provider, 'connect');
    if (failure) {
      setErrorKey(failure);
      setPending(false);
    }
  };

  const disconnect = async (provider: SocialProvider) => {
    setConfirming(null);
    setErrorKey(null);
    setPending(true);
    if (provider === 'facebook') {
      const failure = await goToProvider(localize, 'facebook', 'disconnect');
      if (failure) {
        setErrorKey(failure);
        setPending(false);
      }
      return;
    }
    try {
      onSaved(await accountApi.disconnectSocial(provider));
      setDone({ provider, done: 'disconnected' });
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <ErrorAlert messageKey={errorKey} />
      {done && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {t(done.done === 'connected' ? 'pages.profile.connectedNow' : 'pages.profile.disconnectedNow', { provider: PROVIDER_NAMES[done.provider] })}
        </Alert>
      )}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        {(['google', 'facebook'] as const).map((provider) => {
          const connected = provider === 'google' ? user.googleConnected : user.facebookConnected;
          return (
            <Box component="li" key={provider} sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              <Typography sx={{ flex: 1 }}>
                <strong>{PROVIDER_NAMES[provider]}</strong>
                {' · '}
                {t(connected ? 'pages.profile.isConnected' : 'pages.profile.notConnected')}
              </Typography>
              {connected ? (
                <Button variant="outlined" color="error" disabled={pending} onClick={() => setConfirming(provider)}>
                  {t('pages.profile.disconnect', { provider: PROVIDER_NAMES[provider] })}
                </Button>
              ) : (
                <Button variant="outlined" disabled={pending} onClick={() => void connect(provider)}>
                  {t('pages.profile.connect', { provider: PROVIDER_NAMES[provider] })}
                </Button>
              )}
            </Box>
          );
        })}
      </Box>
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)} aria-labelledby="disconnect-title">
        <DialogTitle id="disconnect-title">
          {t('pages.profile.confirmDisconnectTitle', { provider: confirming ? PROVIDER_NAMES[confirming] : '' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t(confirming === 'facebook' ? 'pages.profile.confirmDisconnectFacebook' : 'pages.profile.confirmDisconnectText', {
              provider: confirming ? PROVIDER_NAMES[confirming] : '',
            })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(null)}>{t('pages.profile.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => confirming && void disconnect(confirming)}>
            {t('pages.profile.confirmDisconnect')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change password: the current one is checked as soon as it is entered, and again by the change itself. */
function PasswordForm({ email, hasPassword, onSet }: { email: string; hasPassword: boolean; onSet: () => void }) {
  const { t } = useTranslation();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { errors, isSubmitting },
  } = useHookForm<PasswordValues>({ defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });

  const checkCurrent = async () => {
    const oldPassword = getValues('currentPassword');
    if (!oldPassword) return;
    const { result } = await accountApi.checkOldPassword(oldPassword).catch(() => ({ result: true }));
    if (!result) setError('currentPassword', { message: t('errors.WRONG_OLD_PASSWORD') });
  };

  const submit = handleSubmit(async (values) => {
    setErrorKey(null);
    setChanged(false);
    try {
      await authProvider.changePassword(
        hasPassword ? { password: values.newPassword, oldPassword: values.currentPassword } : { password: values.newPassword },
      );
      reset();
      setChanged(true);
      if (!hasPassword) onSet();
    } catch (error) {
      const key = messageKeyOf(error);
      if (key === 'WRONG_OLD_PASSWORD') setError('currentPassword', { message: t('errors.WRONG_OLD_PASSWORD') });
      else if (key === 'PASSWORD_TOO_WEAK') setError('newPassword', { message: t('errors.PASSWORD_TOO_WEAK') });
      else setErrorKey(key);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.password')}>
      {/* For password managers: which account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <ErrorAlert messageKey={errorKey} />
      {changed && (
        <Alert severity="success" role="status">
          {t(hasPassword ? 'pages.profile.passwordChanged' : 'pages.profile.passwordSet')}
        </Alert>
      )}
      {hasPassword ? (
        <TextField
          id="current-password"
          type="password"
          label={t('pages.profile.currentPassword')}
          autoComplete="current-password"
          required
          {...register('currentPassword', {
            required: t('validation.passwordRequired'),
            onBlur: () => void checkCurrent(),
          })}
          error={Boolean(errors.currentPassword)}
          helperText={errors.currentPassword?.message}
        />
      ) : (
        <Typography>{t('pages.profile.noPassword')}</Typography>
      )}
      <TextField
        id="new-password"
        type="password"
        label={t('pages.profile.newPassword')}
        autoComplete="new-password"
        required
        {...register('newPassword', { validate: (value) => (isStrongEnough(value) ? true : t('validation.passwordRule')) })}
        error={Boolean(errors.newPassword)}
        helperText={errors.newPassword?.message ?? t('validation.passwordRule')}
      />
      <TextField
        id="confirm-password"
        type="password"
        label={t('pages.profile.confirmPassword')}
        autoComplete="new-password"
        required
        {...register('confirmPassword', {
          validate: (value, values) => (value === values.newPassword ? true : t('validation.passwordsDiffer')),
        })}
        error={Boolean(errors.confirmPassword)}
        helperText={errors.confirmPassword?.message}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {t(hasPassword ? 'pages.profile.changePassword' : 'pages.profile.setPassword')}
        </Button>
      </Box>
    </Box>
  );
}

/** What a redeemed coupon gave, in words. */
function grantText(t: TFunction, grant: Grant, language: string): string {
  switch (grant.kind) {
    case 'licence':
      return t('pages.profile.couponLicence', { release: grant.release });
    case 'access':
      return t('pages.profile.couponAccess', {
        count: grant.days,
        date: new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(grant.accessEndsAt)),
      });
    case 'lite':
      return t('pages.profile.couponLite', { channel: grant.channel });
  }
}

/** The coupon field (`POST /coupons/redeem`): says what the coupon gave, or why it gave nothing. */
function CouponForm() {
  const { t } = useTranslation();
  const { language } = useLocale();
  const [code, setCode] = useState('');
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [granted, setGranted] = useState<Grant | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const couponCode = code.trim();
    if (!couponCode) return;
    setErrorKey(null);
    setGranted(null);
    setPending(true);
    try {
      setGranted((await licensingApi.redeemCoupon(couponCode)).grant);
      setCode('');
    } catch (error) {
      setErrorKey(messageKeyOf(error));
    } finally {
      setPending(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.coupon')}>
      <ErrorAlert messageKey={errorKey} />
      {granted && (
        <Alert severity="success" role="status">
          {grantText(t, granted, language)}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <TextField
          id="profile-coupon"
          label={t('pages.profile.couponCode')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="outlined" size="large" disabled={pending || code.trim() === ''} sx={{ mt: 0.5 }}>
          {t('pages.profile.couponSave')}
        </Button>
      </Box>
    </Box>
  );
}

/** `/account/profile` (spec section 2): personal details, newsletter, password, coupon and the download. */
export default function Profile() {
  const { t } = useTranslation();
  const invalidateAuth = useInvalidateAuthStore();
  const [user, setUser] = useState<Me | null>(null);
  const { data: current } = useGetIdentity<Me>();
  const shown = user ?? current;

  const refreshUser = async () => onSaved(await http<Me>('/users/me'));

  const onSaved = (updated: Me) => {
    authProvider.rememberUser(updated);
    setUser(updated);
    void invalidateAuth();
  };

  return (
    <PageCard title={t('pages.profile.title')}>
      {shown ? (
        <>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('pages.profile.details')}
          </Typography>
          <DetailsForm initial={current ?? undefined} onSaved={onSaved} />
          <Section title={t('pages.profile.newsletter')}>
            <NewsletterSwitch user={shown} onSaved={onSaved} />
          </Section>
          <Section title={t('pages.profile.password')}>
            <PasswordForm email={shown.email} hasPassword={shown.hasPassword} onSet={() => void refreshUser()} />
          </Section>
          <Section title={t('pages.profile.connectedAccounts')}>
            <ConnectedAccounts user={shown} onSaved={onSaved} />
          </Section>
          <Section title={t('pages.profile.coupon')}>
            <CouponForm />
          </Section>
          <Section title={t('download.title')}>
            <DownloadShapelab />
          </Section>
          <Section title={t('pages.profile.data.title')}>
            <DownloadMyData />
          </Section>
          <Section title={t('pages.profile.data.dangerTitle')}>
            <DeleteMyAccount hasPassword={shown.hasPassword} />
          </Section>
        </>
      ) : (
        <FullPageSpinner />
      )}
    </PageCard>
  );
}
