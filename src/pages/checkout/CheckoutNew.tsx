import Alert from '@mui/material/Alert';
import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { CheckoutEventsData } from '@paddle/paddle-js';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import type { CheckoutResponse } from '../../../contract/billing.js';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { BillingAddressForm } from '../../billing/BillingAddressForm.js';
import { createCheckoutDispatcher, type CheckoutHandlers } from '../../billing/checkout-events.js';
import { formatPrice, toMinor } from '../../billing/money.js';
import { listenToPaddle, loadPaddle } from '../../billing/paddle.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';
import { HUMBLE_BUNDLE_KEY } from '../../routing/guard.js';

type Kind = 'subscription' | 'perpetual';
interface Option {
  priceId: string;
  name: string;
  amount: number;
  currencyCode: string;
  interval: 'month' | 'year' | null;
  defaultDiscountId: string | null;
}

const FRAME_CLASS = 'checkout-container';

async function optionsOf(kind: Kind, t: (key: string) => string): Promise<Option[]> {
  if (kind === 'subscription') {
    return (await billingApi.plans()).map((plan) => ({
      priceId: plan.id,
      name: plan.interval === 'year' ? t('pages.choosePlan.yearly') : t('pages.choosePlan.monthly'),
      amount: plan.unitPrice.amount,
      currencyCode: plan.unitPrice.currencyCode,
      interval: plan.interval,
      defaultDiscountId: plan.discount?.id ?? null,
    }));
  }
  return (await billingApi.perpetualProducts()).flatMap((product) =>
    product.prices.map((price) => ({
      priceId: price.id,
      name: product.name,
      amount: price.unitPrice.amount,
      currencyCode: price.unitPrice.currencyCode,
      interval: null,
      defaultDiscountId: product.discount?.id ?? null,
    })),
  );
}

/**
 * `checkout-new/{type}/{priceId?}` (spec sections 2 and 4), for a signed-in buyer: the product type and
 * price, the discount (from `?discount=id`, `?discountCode=code` or the dialog; the plan's own first-
 * purchase discount otherwise), the summary (subtotal, VAT, discount, due today) as the provider reports
 * it, and the provider's checkout inline in one-page mode, dark, in the reader's language. The server
 * creates the transaction (so a returning subscriber gets no second trial); the page opens it.
 */
export default function CheckoutNewPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const kind: Kind = params.type === 'perpetual' ? 'perpetual' : 'subscription';
  useDocumentTitle(t(titleKey));

  const [options, setOptions] = useState<Option[] | null>(null);
  const [discount, setDiscount] = useState<{ id: string; code: string | null } | 'default' | null>(search.get('discount') ? { id: search.get('discount') as string, code: null } : 'default');
  const [summary, setSummary] = useState<CheckoutEventsData | null>(null);
  // The discount the server put on the transaction (asked for, the plan's own, or the upgrade discount).
  const [applied, setApplied] = useState<CheckoutResponse['discount']>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const [dialog, setDialog] = useState(false);
  const [regionDialog, setRegionDialog] = useState(false);
  // Bumped when the buyer's address or business changes: the transaction (and its tax) is made again.
  const [customerVersion, setCustomerVersion] = useState(0);
  const opened = useRef(false);

  const selected = useMemo(() => options?.find((option) => option.priceId === params.priceId) ?? options?.[0] ?? null, [options, params.priceId]);
  const discountId = discount === 'default' ? (selected?.defaultDiscountId ?? null) : (discount?.id ?? null);

  useEffect(() => {
    setOptions(null);
    optionsOf(kind, t)
      .then(setOptions)
      .catch((failure: unknown) => setError(messageKeyOf(failure)));
  }, [kind, t]);

  // `?discountCode=` is checked once, so its problem (expired, archived...) is named on the page.
  useEffect(() => {
    const code = search.get('discountCode');
    if (!code) return;
    // A humble-bundle checkout (`&humbleBundle=true`) accepts only humble-bundle codes, and is remembered
    // until the buyer leaves the checkout.
    const humbleBundle = search.get('humbleBundle') === 'true';
    if (humbleBundle) sessionStorage.setItem(HUMBLE_BUNDLE_KEY, code);
    billingApi
      .discountByCode(code, humbleBundle)
      .then((found) => setDiscount({ id: found.id, code: found.code }))
      .catch((failure: unknown) => setError(messageKeyOf(failure)));
  }, [search]);

  useEffect(() => {
    const handlers: CheckoutHandlers = {
      loaded: (data) => {
        setSummary(data);
        setLoading(false);
      },
      updated: setSummary,
      paymentStarted: () => setProviderError(null),
      // Spec section 4: a warning on the discount resets it to the plan's default.
      warning: () => setDiscount('default'),
      paymentFailed: () => setProviderError(t('pages.checkout.declined')),
      completed: () => navigate(localize(kind === 'subscription' ? '/subscription/success' : '/perpetual/success')),
      error: ({ detail }) => {
        setProviderError(detail || t('pages.checkout.providerError'));
        setLoading(false);
      },
    };
    const dispatch = createCheckoutDispatcher(() => handlers);
    return listenToPaddle(dispatch);
  }, [kind, localize, navigate, t]);

  // A new transaction whenever the price or the discount changes; the checkout shows it.
  useEffect(() => {
    if (!selected) return undefined;
    let cancelled = false;
    setLoading(true);
    setProviderError(null);
    (async () => {
      try {
        const [paddle, checkout] = await Promise.all([loadPaddle(), billingApi.checkout(selected.priceId, discountId)]);
        if (cancelled) return;
        setApplied(checkout.discount);
        if (opened.current) paddle.Checkout.close();
        opened.current = true;
        paddle.Checkout.open({
          transactionId: checkout.transactionId,
          settings: {
            displayMode: 'inline',
            frameTarget: FRAME_CLASS,
            frameInitialHeight: 450,
            frameStyle: 'width: 100%; min-width: 312px; background-color: transparent; border: none;',
            theme: 'dark',
            locale: language,
            variant: 'one-page',
          },
        });
      } catch (failure) {
        if (cancelled) return;
        // The payment script failing to load is shown and logged; everything else by its messageKey.
        console.error('checkout failed to open', failure);
        setApplied(null);
        setError(failure instanceof Error ? 'PAYMENT_SCRIPT_FAILED' : messageKeyOf(failure));
        setLoading(false);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [selected, discountId, language, customerVersion]);

  // Leaving the checkout closes the provider's frame and forgets a humble-bundle checkout (spec section 2).
  useEffect(
    () => () => {
      sessionStorage.removeItem(HUMBLE_BUNDLE_KEY);
      if (opened.current) void loadPaddle().then((paddle) => paddle.Checkout.close());
    },
    [],
  );

  if (!options) return error ? <ErrorAlert messageKey={error} /> : <FullPageSpinner />;
  // Spec section 4: a perpetual price that is not offered (owned, or gone) sends the user to choose a plan.
  const unavailable = !selected || (kind === 'perpetual' && params.priceId !== undefined && selected.priceId !== params.priceId);
  if (unavailable) return <Navigate to={localize('/account/subscription/choose-plan')} replace />;

  const currency = summary?.currency_code ?? selected.currencyCode;
  const money = (major: number | undefined) => formatPrice(major === undefined ? null : toMinor(major), currency, language);
  const totals = summary?.recurring_totals && summary.items.some((item) => item.trial_period) ? summary.recurring_totals : summary?.totals;
  const trial = summary?.items.find((item) => item.trial_period)?.trial_period;

  return (
    <Box component="section" aria-labelledby="page-title" sx={{ maxWidth: 1000 }} data-testid="checkout-page">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {t(titleKey)}
      </Typography>
      <CheckoutError messageKey={error} />
      <ToggleButtonGroup
        exclusive
        value={kind}
        onChange={(_event, next: Kind | null) => next && next !== kind && navigate(localize(`/checkout-new/${next}`))}
        aria-label={t('pages.checkout.productType')}
        sx={{ mb: 2 }}
      >
        <ToggleButton value="subscription">{t('pages.checkout.subscription')}</ToggleButton>
        <ToggleButton value="perpetual">{t('pages.checkout.perpetual')}</ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <RadioGroup
            aria-label={t('pages.checkout.price')}
            value={selected.priceId}
            onChange={(event) => navigate(localize(`/checkout-new/${kind}/${event.target.value}`), { replace: true })}
          >
            {options.map((option) => (
              <FormControlLabel
                key={option.priceId}
                value={option.priceId}
                control={<Radio />}
                label={`${option.name}: ${formatPrice(option.amount, option.currencyCode, language)}${option.interval ? ` / ${t(`pages.checkout.per.${option.interval}`)}` : ''}`}
              />
            ))}
          </RadioGroup>
          <Box component="dl" aria-label={t('pages.checkout.summary')} sx={{ display: 'grid', gridTemplateColumns: '1fr max-content', rowGap: 1, my: 2 }}>
            {[
              ['subtotal', money(totals?.subtotal)],
              ['vat', money(totals?.tax)],
              ['discount', totals?.discount ? `−${money(totals.discount)}` : money(0)],
              ['dueToday', money(summary?.totals.total)],
            ].map(([key, value]) => (
              <Box key={key} sx={{ display: 'contents' }}>
                <Typography component="dt">{t(`pages.checkout.${key}`)}</Typography>
                <Typography component="dd" sx={{ m: 0, fontWeight: key === 'dueToday' ? 700 : 400 }} data-testid={`checkout-${key}`}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {trial && <Typography color="text.secondary">{t('pages.checkout.trialNote', { count: trial.frequency })}</Typography>}
          {/* A discount by its name and what it takes off (never by its id), as the provider totals it; one that takes off nothing is not claimed. */}
          {applied && totals && totals.discount > 0 && (
            <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="checkout-discount-code">
              {t('pages.checkout.discountApplied', { name: applied.description })}{' '}
              <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                −{money(totals.discount)}
              </Box>
            </Typography>
          )}
          <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
            <Button variant="outlined" onClick={() => setDialog(true)}>
              {t('pages.checkout.addDiscount')}
            </Button>
            {discount !== 'default' && (
              <Button onClick={() => setDiscount('default')}>{t('pages.checkout.removeDiscount')}</Button>
            )}
            <Button variant="outlined" onClick={() => setRegionDialog(true)}>
              {t('pages.checkout.regionAndVat')}
            </Button>
          </Box>
        </Paper>
        <Box>
          {providerError && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {providerError}
            </Alert>
          )}
          <div className={FRAME_CLASS} />
        </Box>
      </Box>
      <DiscountDialog
        open={dialog}
        onClose={() => setDialog(false)}
        onApplied={(found) => {
          setDiscount(found);
          setDialog(false);
        }}
      />
      <Dialog open={regionDialog} onClose={() => setRegionDialog(false)} aria-labelledby="region-title" fullWidth maxWidth="sm">
        <DialogTitle id="region-title">{t('pages.checkout.regionAndVat')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <BillingAddressForm
              business
              onCancel={() => setRegionDialog(false)}
              onSaved={() => {
                setRegionDialog(false);
                setCustomerVersion((n) => n + 1);
              }}
            />
          </Box>
        </DialogContent>
      </Dialog>
      <Backdrop open={loading} sx={{ zIndex: (theme) => theme.zIndex.modal + 1, flexDirection: 'column', gap: 2, color: '#fff' }}>
        <CircularProgress size={80} color="primary" aria-label={t('pages.checkout.retrieving')} />
        <Typography role="status">{t('pages.checkout.retrieving')}</Typography>
      </Backdrop>
    </Box>
  );
}

/**
 * A refused checkout, by its messageKey; one that is refused because the user has it already (issue 16)
 * leads to where they manage what they have.
 */
function CheckoutError({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const manage: Record<string, { path: string; label: string }> = {
    SUBSCRIPTION_EXISTS: { path: '/account/subscription', label: 'pages.checkout.manageSubscription' },
    PRODUCT_ALREADY_OWNED: { path: '/account/licences', label: 'pages.checkout.seeLicences' },
  };
  const link = messageKey ? manage[messageKey] : undefined;
  if (!link) return <ErrorAlert messageKey={messageKey} />;
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      role="alert"
      action={
        <Button color="inherit" size="small" component={RouterLink} to={localize(link.path)}>
          {t(link.label)}
        </Button>
      }
    >
      {t(`errors.${messageKey}`)}
    </Alert>
  );
}

/** The discount code dialog: the code is checked by the server, and its problem named, before it is used. */
function DiscountDialog({ open, onClose, onApplied }: { open: boolean; onClose: () => void; onApplied: (found: { id: string; code: string | null }) => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function apply(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const found = await billingApi.discountByCode(code.trim());
      onApplied({ id: found.id, code: found.code });
      setCode('');
    } catch (failure) {
      setError(messageKeyOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="discount-title" fullWidth maxWidth="xs">
      <Box component="form" onSubmit={(event: FormEvent) => void apply(event)} noValidate>
        <DialogTitle id="discount-title">{t('pages.checkout.addDiscount')}</DialogTitle>
        <DialogContent>
          <ErrorAlert messageKey={error} />
          <TextField autoFocus fullWidth margin="dense" label={t('pages.checkout.discountCode')} value={code} onChange={(event) => setCode(event.target.value)} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('pages.checkout.close')}</Button>
          <Button type="submit" variant="contained" disabled={busy || !code.trim()}>
            {t('pages.checkout.apply')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
