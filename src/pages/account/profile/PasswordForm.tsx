import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useNotification } from '@refinedev/core';
import { memo, useCallback, useMemo } from 'react';
import { useForm, useFormState, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordFormSchema, type PasswordFormValues } from '../../../../contract/forms.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText, messageKeyOf } from '../../../../providers/errors.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';
import { isCommonPassword, PasswordStrengthHint, usePasswordStrength } from '../../../components/form/PasswordStrengthHint.js';
import { useChangePassword } from '../../../data/useCurrentUser.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/**
 * Change (or set) the password, validated by the contract's password rules: the current one is checked
 * as soon as it is entered, and again by the change itself; the server's refusal goes under its field.
 * The fields are a memoized part, as in ./DetailsForm.tsx: `useForm`'s render right after it mounts is
 * then this component's hooks alone.
 */
export function PasswordForm({ email, hasPassword, onSet }: { email: string; hasPassword: boolean; onSet: () => void }) {
  const { t } = useTranslation();
  const { open: notify } = useNotification();
  const changePassword = useChangePassword();
  const { mutateAsync: checkOld } = useCustomMutation<{ result: boolean }, DataError>();
  const resolver = useMemo(() => zodResolver(passwordFormSchema(hasPassword)), [hasPassword]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    getValues,
    control,
  } = useForm<PasswordFormValues>({ resolver, defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });

  const checkCurrent = useCallback(async () => {
    const oldPassword = getValues('currentPassword');
    if (!oldPassword) return;
    const answer = await checkOld({ url: '/users/checkOldPassword', method: 'post', values: { oldPassword }, errorNotification: false }).catch(() => null);
    if (answer && !answer.data.result) setError('currentPassword', serverError('WRONG_OLD_PASSWORD'));
  }, [getValues, checkOld, setError]);

  const submit = handleSubmit(async (values) => {
    // A password from the common-password list is refused here, as the server would (issue 44).
    if (await isCommonPassword(values.newPassword)) {
      setError('newPassword', serverError('PASSWORD_TOO_COMMON'), { shouldFocus: true });
      return;
    }
    try {
      await changePassword(hasPassword ? { password: values.newPassword, oldPassword: values.currentPassword } : { password: values.newPassword });
      reset();
      notify?.({ type: 'success', message: t(hasPassword ? 'pages.profile.passwordChanged' : 'pages.profile.passwordSet') });
      if (!hasPassword) onSet();
    } catch (error) {
      const key = messageKeyOf(error);
      if (key === 'WRONG_OLD_PASSWORD') setError('currentPassword', serverError(key));
      else if (key === 'PASSWORD_TOO_WEAK' || key === 'PASSWORD_TOO_COMMON') setError('newPassword', serverError(key));
      else notify?.({ type: 'error', message: errorText(t, error) });
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.password')}>
      {/* For password managers: which account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordFields control={control} register={register} hasPassword={hasPassword} onCurrentLeft={checkCurrent} />
    </Box>
  );
}

interface PasswordFieldsProps {
  control: Control<PasswordFormValues>;
  register: UseFormRegister<PasswordFormValues>;
  hasPassword: boolean;
  /** The current password was entered and left: check it. */
  onCurrentLeft: () => Promise<void>;
}

/** The password fields and the button; they follow the form's errors and its submitting themselves. */
const PasswordFields = memo(function PasswordFields({ control, register, hasPassword, onCurrentLeft }: PasswordFieldsProps) {
  const { t } = useTranslation();
  const { errors, isSubmitting } = useFormState({ control });
  const readOnly = useReadOnly();
  const message = (field: keyof PasswordFormValues) => fieldErrorText(t, errors, field);
  const strength = usePasswordStrength(useWatch({ control, name: 'newPassword' }));
  return (
    <>
      {hasPassword ? (
        <TextField
          id="current-password"
          type="password"
          label={t('pages.profile.currentPassword')}
          autoComplete="current-password"
          required
          {...register('currentPassword', { onBlur: () => void onCurrentLeft() })}
          error={Boolean(errors.currentPassword)}
          helperText={message('currentPassword')}
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
        {...register('newPassword')}
        error={Boolean(errors.newPassword)}
        helperText={message('newPassword') ?? <PasswordStrengthHint strength={strength} />}
      />
      <TextField
        id="confirm-password"
        type="password"
        label={t('pages.profile.confirmPassword')}
        autoComplete="new-password"
        required
        {...register('confirmPassword')}
        error={Boolean(errors.confirmPassword)}
        helperText={message('confirmPassword')}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={isSubmitting || readOnly}>
          {t(hasPassword ? 'pages.profile.changePassword' : 'pages.profile.setPassword')}
        </Button>
      </Box>
    </>
  );
});
