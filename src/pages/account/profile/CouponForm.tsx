import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useCustomMutation } from '@refinedev/core';
import type { TFunction } from 'i18next';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { codeFormSchema, type CodeFormValues } from '../../../../contract/forms.js';
import type { Grant } from '../../../../contract/licensing.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatLongDate } from '../../../format/index.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/** What a redeemed coupon gave, in words. */
function grantText(t: TFunction, grant: Grant, language: string): string {
  switch (grant.kind) {
    case 'licence':
      return t('pages.profile.couponLicence', { release: grant.release });
    case 'access':
      return t('pages.profile.couponAccess', { count: grant.days, date: formatLongDate(grant.accessEndsAt, language) });
    case 'lite':
      return t('pages.profile.couponLite', { channel: grant.channel });
  }
}

const resolver = zodResolver(codeFormSchema);

/**
 * The coupon field (`POST /coupons/redeem`): what the coupon gave is a notification; why it gave nothing
 * (unknown, used, expired...) is the field's error, shown under it.
 */
export function CouponForm() {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { mutateAsync: redeem } = useCustomMutation<{ grant: Grant }, DataError>();
  const readOnly = useReadOnly();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CodeFormValues>({ resolver, defaultValues: { code: '' } });

  const submit = handleSubmit(async ({ code }) => {
    try {
      await redeem({
        url: '/coupons/redeem',
        method: 'post',
        values: { code },
        errorNotification: false,
        successNotification: (response) => (response ? { type: 'success', message: grantText(t, response.data.grant, language) } : false),
      });
      reset();
    } catch (error) {
      setError('code', serverError(messageKeyOf(error)));
    }
  });
  // The code's one rule (not empty) holds the button back; what shows is the server's refusal.
  const refusal = errors.code?.type === 'server' ? fieldErrorText(t, errors, 'code') : undefined;

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('pages.profile.coupon')}>
      {refusal && (
        <Alert severity="error" role="alert">
          {refusal}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <TextField id="profile-coupon" label={t('pages.profile.couponCode')} {...register('code')} autoComplete="off" sx={{ flex: 1 }} />
        <Button type="submit" variant="outlined" size="large" disabled={isSubmitting || readOnly || watch('code').trim() === ''} sx={{ mt: 0.5 }}>
          {t('pages.profile.couponSave')}
        </Button>
      </Box>
    </Box>
  );
}
