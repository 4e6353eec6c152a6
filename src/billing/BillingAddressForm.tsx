import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingInfo } from '../../contract/billing.js';
import { regionProblems, type RegionValues } from '../../contract/billing-validation.js';
import { isValidEmail } from '../../contract/email.js';
import { http } from '../../providers/index.js';
import { messageKeyOf } from '../../providers/http.js';
import { useCountryOptions } from '../components/countries.js';
import { ErrorAlert } from '../components/ErrorAlert.js';

type Field = keyof BillingInfo;
type Values = Record<Field, string>;

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
 * (`business`) asks for what a business purchase needs, all required. Field errors come from the same
 * rules the server applies (contract/billing-validation.ts); the server's verdict is shown too, under
 * its field when it names one.
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
  const [info, setInfo] = useState<BillingInfo | null>(null);
  const [values, setValues] = useState<Values>(toValues(null));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [allCountries, setAllCountries] = useState(false);
  const countries = useCountryOptions(i18n.language, allCountries, values.country);

  useEffect(() => {
    http<BillingInfo>('/subscription/billing-info')
      .then((loaded) => {
        setInfo(loaded);
        setValues(toValues(loaded));
      })
      .catch((failure: unknown) => setErrorKey(messageKeyOf(failure)));
  }, []);

  const shown: Field[] = business ? BUSINESS_FIELDS : withEmail ? FIELDS : ADDRESS_FIELDS;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    setErrorKey(null);
    const region: RegionValues = {
      country: orNull(values.country),
      state: orNull(values.state),
      addressLine1: orNull(values.addressLine1),
      city: orNull(values.city),
      postalCode: orNull(values.postalCode),
      company: orNull(values.company),
      vatNumber: orNull(values.vatNumber),
    };
    const found: Partial<Record<Field, string>> = Object.fromEntries(
      Object.entries(regionProblems(region, { business })).map(([field, problem]) => [field, t(`billing.problems.${problem}`)]),
    );
    if (shown.includes('email')) {
      const email = values.email.trim();
      if (!email) found.email = t('billing.problems.required');
      else if (!isValidEmail(email)) found.email = t('validation.invalidEmail');
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const body = Object.fromEntries(shown.map((field) => [field, orNull(values[field])]));
      const updated = await http<BillingInfo>('/subscription/billing-info', { method: 'PATCH', body });
      setInfo(updated);
      setValues(toValues(updated));
      setSaved(true);
      onSaved?.(updated);
    } catch (failure) {
      const messageKey = messageKeyOf(failure);
      const field = FIELD_OF_ERROR[messageKey];
      if (field) setProblems({ [field]: t(`errors.${messageKey}`) });
      else setErrorKey(messageKey);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={(event: FormEvent) => void save(event)} sx={{ display: 'grid', gap: 2 }} aria-label={t('billing.formLabel')}>
      <ErrorAlert messageKey={errorKey} />
      {saved && !onSaved && (
        <Alert severity="success" role="status">
          {t('billing.saved')}
        </Alert>
      )}
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
            value={values.country}
            onFocus={() => setAllCountries(true)}
            onMouseDown={() => setAllCountries(true)}
            onChange={(event) => setValues({ ...values, country: event.target.value })}
            error={Boolean(problems.country)}
            helperText={problems.country}
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
            value={values[field]}
            onChange={(event) => setValues({ ...values, [field]: event.target.value })}
            error={Boolean(problems[field])}
            // The billing email says where invoices go, so nobody mistakes it for the sign-in email.
            helperText={problems[field] ?? (field === 'email' ? t('billing.emailHint') : undefined)}
          />
        ),
      )}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        {onCancel && <Button onClick={onCancel}>{t('billing.cancel')}</Button>}
        <Button type="submit" variant="contained" disabled={busy || info === null}>
          {t('billing.save')}
        </Button>
      </Box>
    </Box>
  );
}
