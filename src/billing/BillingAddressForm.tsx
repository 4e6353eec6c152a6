import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useForm } from '@refinedev/react-hook-form';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingInfo } from '../../contract/billing.js';
import { billingFormSchema, type BillingFormValues } from '../../contract/forms.js';
import type { DataError } from '../../providers/dataProvider.js';
import { useCountryOptions } from '../components/countries.js';
import { FullPageSpinner } from '../components/FullPageSpinner.js';

type Field = keyof BillingInfo;
type Values = BillingFormValues;

const FIELDS: Field[] = ['email', 'name', 'company', 'vatNumber', 'country', 'state', 'addressLine1', 'addressLine2', 'city', 'postalCode'];
const ADDRESS_FIELDS = FIELDS.filter((field) => field !== 'email');
const BUSINESS_FIELDS: Field[] = ['company', 'vatNumber', 'country', 'state', 'addressLine1', 'city', 'postalCode'];
const AUTOCOMPLETE: Partial<Record<Field, string>> = {
  email: 'email',
  name: 'name',
  company: 'organization',
  country: 'country',
  state: 'address-level1',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  city: 'address-level2',
  postalCode: 'postal-code',
};

const toValues = (info: BillingInfo | null): Values =>
  Object.fromEntries(FIELDS.map((field) => [field, info?.[field] ?? ''])) as Values;
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** The server's refusals that belong to one field, shown under it rather than above the form. */
const FIELD_OF_ERROR: Partial<Record<string, Field>> = {
  BILLING_EMAIL_TAKEN: 'email',
  POSTAL_CODE_INVALID: 'postalCode',
  VAT_NUMBER_INVALID: 'vatNumber',
};

/**
 * The billing address and business (spec sections 2 and 5), kept on the provider's customer through
 * `GET/PATCH /subscription/billing-info`: billing info edits every field, the billing email with them
 * (`withEmail`; where invoices go, not the sign-in email); the checkout's region and VAT dialog
 * (`business`) asks for what a business purchase needs, all required. Refine's form over the resource
 * `billing-info`; field errors come from the same rules the server applies (billingFormSchema in
 * contract/billing-validation.ts, through the zod resolver); the server's verdict is shown too, under its
 * field when it names one, as a notification otherwise.
 */
export function BillingAddressForm({
  business,
  withEmail = false,
  onSaved,
  onCancel,
}: {
  business: boolean;
  withEmail?: boolean;
  onSaved?: (info: BillingInfo) => void;
  onCancel?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [allCountries, setAllCountries] = useState(false);
  const shown: Field[] = business ? BUSINESS_FIELDS : withEmail ? FIELDS : ADDRESS_FIELDS;
  const asksEmail = !business && withEmail;
  const resolver = useMemo(() => zodResolver(billingFormSchema({ business, withEmail: asksEmail })), [business, asksEmail]);
  const {
    refineCore: { onFinish, query, formLoading },
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<BillingInfo, DataError, Values>({
    resolver,
    defaultValues: toValues(null),
    refineCoreProps: {
      resource: 'billing-info',
      id: 'me',
      action: 'edit',
      redirect: false,
      // The form edits text; the API's nulls are empty fields.
      queryOptions: { select: (response) => ({ ...response, data: toValues(response.data) as unknown as BillingInfo }) },
      successNotification: onSaved ? false : () => ({ type: 'success', message: t('billing.saved') }),
      // A refusal that names a field is shown under it; others are notified.
      errorNotification: (error) => (error && FIELD_OF_ERROR[error.messageKey] ? false : { type: 'error', message: error?.message ?? t('errors.DEFAULT') }),
      onMutationSuccess: (response) => onSaved?.(response.data),
      onMutationError: (error) => {
        const field = FIELD_OF_ERROR[error.messageKey];
        if (field) setError(field, { message: `errors.${error.messageKey}` });
      },
    },
  });
  // Until the saved values arrive there are no fields to type in: the values, once loaded, would replace it.
  const loaded = query?.data !== undefined;
  const countries = useCountryOptions(i18n.language, allCountries, watch('country'));
  const problem = (field: Field) => {
    const message = errors[field]?.message;
    return message ? t(message) : undefined;
  };
  // A refusal is shown by onMutationError (under its field) or the notification; nothing is left to catch.
  const save = handleSubmit((values) =>
    onFinish(Object.fromEntries(shown.map((field) => [field, orNull(values[field])])) as unknown as Values).then(
      () => undefined,
      () => undefined,
    ),
  );

  if (!loaded) return <FullPageSpinner minHeight={240} />;
  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('billing.formLabel')}>
      {shown.map((field) =>
        field === 'country' ? (
          <TextField
            key={field}
            id={`billing-${field}`}
            label={t('billing.fields.country')}
            select
            required
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            autoComplete="country"
            {...register('country')}
            onFocus={() => setAllCountries(true)}
            onMouseDown={() => setAllCountries(true)}
            error={Boolean(errors.country)}
            helperText={problem('country')}
          >
            <option value="">{t('billing.noCountry')}</option>
            {countries}
          </TextField>
        ) : (
          <TextField
            key={field}
            id={`billing-${field}`}
            label={t(`billing.fields.${field}`)}
            type={field === 'email' ? 'email' : 'text'}
            required={business || field === 'postalCode' || field === 'email'}
            autoComplete={AUTOCOMPLETE[field] ?? 'off'}
            {...register(field)}
            error={Boolean(errors[field])}
            // The billing email says where invoices go, so nobody mistakes it for the sign-in email.
            helperText={problem(field) ?? (field === 'email' ? t('billing.emailHint') : undefined)}
          />
        ),
      )}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        {onCancel && <Button onClick={onCancel}>{t('billing.cancel')}</Button>}
        <Button type="submit" variant="contained" disabled={formLoading || !query?.data}>
          {t('billing.save')}
        </Button>
      </Box>
    </Box>
  );
}
