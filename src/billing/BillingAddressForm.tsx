import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingInfo } from '../../contract/billing.js';
import { regionProblems, type RegionValues } from '../../contract/billing-validation.js';
import { http } from '../../providers/index.js';
import { messageKeyOf } from '../../providers/http.js';
import { useCountryOptions } from '../components/countries.js';
import { ErrorAlert } from '../components/ErrorAlert.js';

type Field = keyof Omit<BillingInfo, 'email'>;
type Values = Record<Field, string>;

const FIELDS: Field[] = ['name', 'company', 'vatNumber', 'country', 'state', 'addressLine1', 'addressLine2', 'city', 'postalCode'];
const AUTOCOMPLETE: Partial<Record<Field, string>> = {
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

/**
 * The billing address and business (spec sections 2 and 5), kept on the provider's customer through
 * `GET/PATCH /subscription/billing-info`: billing info edits every field; the checkout's region and VAT
 * dialog (`business`) asks for what a business purchase needs, all required. Field errors come from the
 * same rules the server applies (contract/billing-validation.ts); the server's verdict is shown too.
 */
export function BillingAddressForm({ business, onSaved, onCancel }: { business: boolean; onSaved?: (info: BillingInfo) => void; onCancel?: () => void }) {
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

  const shown: Field[] = business ? ['company', 'vatNumber', 'country', 'state', 'addressLine1', 'city', 'postalCode'] : FIELDS;

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
    const found = regionProblems(region, { business });
    setProblems(Object.fromEntries(Object.entries(found).map(([field, problem]) => [field, t(`billing.problems.${problem}`)])));
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
      setErrorKey(messageKeyOf(failure));
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
      {!business && (
        <TextField
          label={t('billing.fields.email')}
          value={info?.email ?? ''}
          disabled
          helperText={t('billing.emailHint')}
          // The hint explains the locked field, so it keeps readable contrast instead of greying out with it.
          slotProps={{ formHelperText: { disabled: false } }}
        />
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
            required={business || field === 'postalCode'}
            autoComplete={AUTOCOMPLETE[field] ?? 'off'}
            value={values[field]}
            onChange={(event) => setValues({ ...values, [field]: event.target.value })}
            error={Boolean(problems[field])}
            helperText={problems[field]}
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
