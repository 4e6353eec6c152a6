import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useForm } from '@refinedev/react-hook-form';
import { useMemo, useRef, useState } from 'react';
import type { Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { needsPostalCode } from '../../contract/billing-validation.js';
import type { BillingInfo } from '../../contract/billing.js';
import { billingFormSchema, type BillingFormValues } from '../../contract/billing-form.js';
import type { DataError } from '../../providers/dataProvider.js';
import { errorText } from '../../providers/errors.js';
import { useCountryOptions } from '../components/countries.js';
import { fieldErrorText, serverError } from '../components/form/fieldErrorText.js';
import { FullPageSpinner } from '../components/FullPageSpinner.js';
import { useReadOnly } from '../data/readOnlyView.js';

type Field = keyof BillingInfo;
type Values = BillingFormValues;

const FIELDS: Field[] = ['email', 'name', 'company', 'vatNumber', 'country', 'postalCode', 'addressLine1', 'addressLine2', 'city', 'state'];
/** Shown only to a business: what its invoices name. */
const BUSINESS_ONLY: Field[] = ['company', 'vatNumber'];
/** A business's invoice carries its name and address (contract/billing-validation.ts, regionProblems). */
const BUSINESS_REQUIRED: Field[] = ['company', 'addressLine1', 'city'];
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
  POSTAL_CODE_REQUIRED: 'postalCode',
  VAT_NUMBER_INVALID: 'vatNumber',
};

/**
 * The billing address and business (spec sections 2 and 5), kept on the provider's customer through
 * `GET/PATCH /subscription/billing-info`; billing info edits the billing email with them (`withEmail`;
 * where invoices go, not the sign-in email), the checkout's region and VAT dialog the rest. A consumer
 * needs only what tax needs (issue 20: the country, and a postcode where Paddle requires one); "I'm
 * buying as a business" reveals the company name and VAT number, and turning it off clears them (the
 * server then archives the business at Paddle). The switch starts on when a company is saved. The server
 * answers the profile's country while none is saved, so the form starts from it. Refine's form over the
 * resource `billing-info`; field errors come from the same rules the server applies (billingFormSchema in
 * contract/forms.ts, through the zod resolver); the server's verdict is shown too, under its field when
 * it names one, as a notification otherwise.
 */
export function BillingAddressForm({ withEmail = false, onSaved, onCancel }: { withEmail?: boolean; onSaved?: (info: BillingInfo) => void; onCancel?: () => void }) {
  const { t, i18n } = useTranslation();
  const readOnly = useReadOnly();
  const [allCountries, setAllCountries] = useState(false);
  // null until the user flips it: then whether a business is saved decides.
  const [businessChoice, setBusinessChoice] = useState<boolean | null>(null);
  // The rules depend on the switch, which depends on the loaded values: the resolver reads it when it runs.
  const businessNow = useRef(false);
  const resolver = useMemo<Resolver<Values>>(() => {
    const consumer = zodResolver(billingFormSchema({ business: false, withEmail }));
    const company = zodResolver(billingFormSchema({ business: true, withEmail }));
    return (values, context, options) => (businessNow.current ? company : consumer)(values, context, options);
  }, [withEmail]);
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
      errorNotification: (error) => (error && FIELD_OF_ERROR[error.messageKey] ? false : { type: 'error', message: errorText(t, error) }),
      onMutationSuccess: (response) => onSaved?.(response.data),
      onMutationError: (error) => {
        const field = FIELD_OF_ERROR[error.messageKey];
        if (field) setError(field, serverError(error.messageKey));
      },
    },
  });
  // Until the saved values arrive there are no fields to type in: the values, once loaded, would replace it.
  const loaded = query?.data !== undefined;
  const saved = query?.data?.data;
  const business = businessChoice ?? Boolean(saved?.company || saved?.vatNumber);
  businessNow.current = business;
  const shown: Field[] = FIELDS.filter((field) => (field === 'email' ? withEmail : business || !BUSINESS_ONLY.includes(field)));
  // The loaded country is an option from the first render with data: the form's reset sets the select's
  // value right after, and a select drops a value it has no option for.
  const countries = useCountryOptions(i18n.language, allCountries, watch('country') || saved?.country || '');
  const problem = (field: Field) => fieldErrorText(t, errors, field);
  // A refusal is shown by onMutationError (under its field) or the notification; nothing is left to catch.
  const country = watch('country');
  const save = handleSubmit((values) => {
    const changes = Object.fromEntries(shown.map((field) => [field, orNull(values[field])]));
    // A consumer has no company or VAT number: saving clears what a former business left.
    if (!business) Object.assign(changes, { company: null, vatNumber: null });
    return onFinish(changes as unknown as Values).then(
      () => undefined,
      () => undefined,
    );
  });
  const required = (field: Field) =>
    field === 'country' || (field === 'email' && withEmail) || (field === 'postalCode' && needsPostalCode(country)) || (business && BUSINESS_REQUIRED.includes(field));

  if (!loaded) return <FullPageSpinner minHeight={240} />;
  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('billing.formLabel')}>
      <Box>
        <FormControlLabel
          control={<Switch checked={business} onChange={(event) => setBusinessChoice(event.target.checked)} />}
          label={t('billing.business')}
          data-testid="billing-business"
        />
        <FormHelperText sx={{ mt: 0 }}>{t(business ? 'billing.businessHint' : 'billing.consumerHint')}</FormHelperText>
      </Box>
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
            required={required(field)}
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
        <Button type="submit" variant="contained" disabled={formLoading || readOnly || !query?.data}>
          {t('billing.save')}
        </Button>
      </Box>
    </Box>
  );
}
