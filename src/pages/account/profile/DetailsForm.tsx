import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useInvalidate } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useFormState, type Control, type UseFormRegister } from 'react-hook-form';
import { Fragment, lazy, memo, Suspense, useCallback, useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileUpdate } from '../../../../contract/account.js';
import { profileFormSchema, type ProfileFormValues } from '../../../../contract/forms.js';
import type { Me } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText } from '../../../../providers/errors.js';
import { useCountryOptions } from '../../../components/countries.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';
import { Staggered } from '../../../components/Staggered.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/** Server answers that belong to one field are shown under it. */
const FIELD_OF_ERROR: Record<string, keyof ProfileFormValues> = { PHONE_NUMBER_INVALID: 'phone', REGION_NOT_FOUND: 'country' };
const resolver = zodResolver(profileFormSchema);

/** The change-email dialog, downloaded when it is opened (most visits to the profile never open it). */
const ChangeEmailDialog = lazy(() => import('./ChangeEmail.js'));

/**
 * Personal details: Refine's form over the resource `users`, id `me` (`GET/PATCH /users/me`), validated
 * by the contract's profile schema; saved is a notification, a refusal is shown under its field.
 *
 * The fields and the email are memoized parts: react-hook-form's `useForm` sets its `isReady` state in a
 * layout effect when it mounts, a synchronous render of the form right after its first commit. With the
 * parts memoized, that render is the form's hooks alone, not every field again (the task that shows the
 * form on Lighthouse's phone, issue 18; bench/README.md, 2026-11-28).
 */
export function DetailsForm({ initial, onSaved, onShown }: { initial: Me | undefined; onSaved: (user: Me) => void; onShown?: () => void }) {
  const { t, i18n } = useTranslation();
  const [allCountries, setAllCountries] = useState(false);
  const invalidate = useInvalidate();
  const {
    refineCore: { query, onFinish, formLoading },
    register,
    handleSubmit,
    setError,
    watch,
    control,
  } = useForm<Me, DataError, ProfileFormValues>({
    resolver,
    refineCoreProps: {
      resource: 'users',
      id: 'me',
      action: 'edit',
      redirect: false,
      // The signed-in frame has just read the current user: the form starts from it, without waiting and
      // without reading it again (issue 18: /users/me once per navigation at most).
      queryOptions: {
        ...(initial ? { initialData: { data: initial }, staleTime: Infinity } : {}),
        // The form edits text: a phone or country not given is an empty field, not null.
        select: (response) => ({ ...response, data: { ...response.data, phone: response.data.phone ?? '', country: response.data.country ?? '' } }),
      },
      successNotification: () => ({ type: 'success', message: t('pages.profile.saved') }),
      errorNotification: (error) => (error && FIELD_OF_ERROR[error.messageKey] ? false : { type: 'error', message: errorText(t, error) }),
      onMutationSuccess: ({ data }) => onSaved(data),
      onMutationError: (error) => {
        const field = FIELD_OF_ERROR[error.messageKey];
        if (field) setError(field, serverError(error.messageKey));
      },
    },
    defaultValues: { firstName: '', lastName: '', phone: '', country: '', language: 'en' },
    disableServerSideValidation: true,
  });
  const user = query?.data?.data;
  const country = watch('country');
  const countries = useCountryOptions(i18n.language, allCountries, country);
  // A changed sign-in email: the session's user takes the answer, and this form reads the user again.
  const onEmailChanged = useCallback(
    (changed: Me) => {
      onSaved(changed);
      void invalidate({ resource: 'users', id: 'me', invalidates: ['detail'] });
    },
    [onSaved, invalidate],
  );
  if (!user) return <FullPageSpinner />;

  const save = handleSubmit(async (values) => {
    const changes: ProfileUpdate = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      phone: values.phone.trim() || null,
      country: values.country || null,
      language: values.language,
    };
    await onFinish(changes as unknown as ProfileFormValues).catch(() => undefined);
  });

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <EmailField email={user.email} hasPassword={user.hasPassword} onChanged={onEmailChanged} />
      <Box component="form" noValidate onSubmit={(event) => void save(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.details')}>
        <DetailsFields
          control={control}
          register={register}
          country={country}
          countries={countries}
          showAllCountries={setAllCountries}
          saving={formLoading}
          onShown={onShown}
        />
      </Box>
    </Box>
  );
}

/** The sign-in email, outside the form: it changes through its own dialog, never with "Save changes". */
const EmailField = memo(function EmailField({ email, hasPassword, onChanged }: { email: string; hasPassword: boolean; onChanged: (user: Me) => void }) {
  const { t } = useTranslation();
  const [changingEmail, setChangingEmail] = useState(false);
  const readOnly = useReadOnly();
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField id="profile-email" label={t('pages.profile.email')} value={email} slotProps={{ input: { readOnly: true } }} helperText={t('pages.profile.emailHelp')} />
      <Button variant="outlined" disabled={readOnly} onClick={() => setChangingEmail(true)} sx={{ justifySelf: 'start' }}>
        {t('pages.profile.changeEmail.open')}
      </Button>
      {changingEmail && (
        <Suspense fallback={null}>
          <ChangeEmailDialog email={email} hasPassword={hasPassword} onChanged={onChanged} onClose={() => setChangingEmail(false)} />
        </Suspense>
      )}
    </Box>
  );
});

interface DetailsFieldsProps {
  control: Control<ProfileFormValues>;
  register: UseFormRegister<ProfileFormValues>;
  country: string;
  countries: JSX.Element[];
  showAllCountries: Dispatch<SetStateAction<boolean>>;
  saving: boolean;
  onShown: (() => void) | undefined;
}

/**
 * The form's fields and its button. The form's own renders pass them by unless what they show changed;
 * their errors they follow themselves (react-hook-form changes its errors object in place).
 *
 * They come in four parts (Staggered), each in a task of its own after the email and the page's title have
 * painted: all of them in the page's first commit was the longest task after a phone's first paint. The
 * sections below wait for the last part (`onShown`), so no part pushes anything down.
 */
const DetailsFields = memo(function DetailsFields({ control, register, country, countries, showAllCountries, saving, onShown }: DetailsFieldsProps) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  const readOnly = useReadOnly();
  const message = (field: keyof ProfileFormValues) => fieldErrorText(t, errors, field);
  return (
    <Staggered onShown={onShown}>
      <Box key="names" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
        <TextField
          id="profile-first-name"
          label={t('pages.profile.firstName')}
          required
          autoComplete="given-name"
          {...register('firstName')}
          error={Boolean(errors.firstName)}
          helperText={message('firstName')}
        />
        <TextField
          id="profile-last-name"
          label={t('pages.profile.lastName')}
          required
          autoComplete="family-name"
          {...register('lastName')}
          error={Boolean(errors.lastName)}
          helperText={message('lastName')}
        />
      </Box>
      <TextField
        key="phone"
        id="profile-phone"
        label={t('pages.profile.phone')}
        type="tel"
        autoComplete="tel"
        {...register('phone')}
        error={Boolean(errors.phone)}
        helperText={message('phone') ?? t('validation.phoneInvalid')}
      />
      <TextField
        key="country"
        id="profile-country"
        label={t('pages.profile.country')}
        select
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        autoComplete="country"
        {...register('country')}
        // Controlled: the chosen option may appear only in the render after the value is set.
        value={country}
        onFocus={() => showAllCountries(true)}
        onMouseDown={() => showAllCountries(true)}
        error={Boolean(errors.country)}
        helperText={message('country')}
      >
        <option value="">{t('pages.profile.noCountry')}</option>
        {countries}
      </TextField>
      <Fragment key="language">
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
          <Button type="submit" variant="contained" disabled={saving || readOnly}>
            {t('pages.profile.save')}
          </Button>
        </Box>
      </Fragment>
    </Staggered>
  );
});
