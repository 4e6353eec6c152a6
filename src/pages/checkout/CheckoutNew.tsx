import Alert from '@mui/material/Alert';
import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCustom } from '@refinedev/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Discount } from '../../../contract/billing.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { discountText } from '../../billing/catalogueText.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';
import { formatPrice } from '../../format/index.js';
import { HUMBLE_BUNDLE_KEY } from '../../routing/guard.js';
import { CheckoutError } from './new/CheckoutError.js';
import { CheckoutSummary } from './new/CheckoutSummary.js';
import { discountByCodeUrl, type DiscountChoice } from './new/discounts.js';
import { useCheckoutOptions, type Kind } from './new/useCheckoutOptions.js';
import { FRAME_CLASS, usePaddleCheckout } from './new/usePaddleCheckout.js';
import { paths } from '../../routing/paths.js';

/** The two dialogs are forms (react-hook-form, the billing address rules): loaded when first opened. */
const DiscountDialog = lazy(() => import('./new/DiscountDialog.js').then((module) => ({ default: module.DiscountDialog })));
const RegionDialog = lazy(() => import('./new/RegionDialog.js').then((module) => ({ default: module.RegionDialog })));

/**
 * `checkout-new/{type}/{priceId?}` (spec sections 2 and 4), for a signed-in buyer: the product type and
 * price, the discount (from `?discount=id`, `?discountCode=code` or the dialog; the plan's own first-
 * purchase discount otherwise), the summary as the provider reports it, and the provider's checkout
 * inline (new/usePaddleCheckout.ts). The server creates the transaction (so a returning subscriber gets
 * no second trial); the page opens it.
 */
export default function CheckoutNewPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const kind: Kind = params.type === 'perpetual' ? 'perpetual' : 'subscription';
  useDocumentTitle(t(titleKey));

  const options = useCheckoutOptions(kind);
  const [discount, setDiscount] = useState<DiscountChoice>(search.get('discount') ? { id: search.get('discount') as string, code: null } : 'default');
  const [dialog, setDialog] = useState(false);
  const [regionDialog, setRegionDialog] = useState(false);
  // Bumped when the buyer's address or business changes: the transaction (and its tax) is made again.
  const [customerVersion, setCustomerVersion] = useState(0);

  // `?discountCode=` is checked once, so its problem (expired, archived...) is named on the page. A
  // humble-bundle checkout (`&humbleBundle=true`) accepts only humble-bundle codes, and is remembered
  // until the buyer leaves the checkout.
  const codeInAddress = search.get('discountCode');
  const humbleBundle = search.get('humbleBundle') === 'true';
  const fromAddress = useCustom<Discount, DataError>({
    url: discountByCodeUrl(codeInAddress ?? '', humbleBundle),
    method: 'get',
    errorNotification: false,
    queryOptions: { enabled: codeInAddress !== null, retry: false },
  });
  const found = fromAddress.result.data as Discount | undefined;
  useEffect(() => {
    if (codeInAddress && humbleBundle) sessionStorage.setItem(HUMBLE_BUNDLE_KEY, codeInAddress);
  }, [codeInAddress, humbleBundle]);
  useEffect(() => {
    if (found?.id) setDiscount({ id: found.id, code: found.code });
  }, [found?.id, found?.code]);

  const selected = options?.find((option) => option.priceId === params.priceId) ?? options?.[0] ?? null;
  const discountId = discount === 'default' ? (selected?.defaultDiscountId ?? null) : (discount?.id ?? null);
  const checkout = usePaddleCheckout(kind, selected?.priceId ?? null, discountId, customerVersion);
  // Spec section 4: a warning on the discount resets it to the plan's default.
  useEffect(() => {
    if (checkout.discountWarned > 0) setDiscount('default');
  }, [checkout.discountWarned]);

  const decision = checkout.transaction?.discountDecision ?? null;

  if (!options) return <FullPageSpinner />;
  // Spec section 4: a perpetual price that is not offered (owned, or gone) sends the user to choose a plan.
  const unavailable = !selected || (kind === 'perpetual' && params.priceId !== undefined && selected.priceId !== params.priceId);
  if (unavailable) return <Navigate to={localize(paths.choosePlan)} replace />;

  return (
    <Box component="section" aria-labelledby="page-title" sx={{ maxWidth: 1000 }} data-testid="checkout-page">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {t(titleKey)}
      </Typography>
      <CheckoutError messageKey={fromAddress.query.error ? fromAddress.query.error.messageKey : checkout.errorKey} />
      <ToggleButtonGroup
        exclusive
        value={kind}
        onChange={(_event, next: Kind | null) => next && next !== kind && void navigate(localize(paths.checkoutNew(next)))}
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
            onChange={(event) => void navigate(localize(paths.checkoutNew(kind, event.target.value)), { replace: true })}
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
          <CheckoutSummary summary={checkout.summary} currencyCode={selected.currencyCode} transaction={checkout.transaction} />
          {/* Issue 46 item 1: before paying, a purchase whose 14-day refund the customer has had once already says so. */}
          {checkout.transaction?.refundable === false && (
            <Alert severity="info" sx={{ mt: 1 }} data-testid="checkout-refund-notice">
              {t(kind === 'subscription' ? 'pages.checkout.refundUsedSubscription' : 'pages.checkout.refundUsedRelease')}
            </Alert>
          )}
          {decision && (
            <Alert severity="info" sx={{ mt: 1 }} data-testid="checkout-discount-decision">
              {t(`pages.checkout.discountDecision.${decision.messageKey}`, {
                applied: discountText(decision.applied, language),
                declined: discountText(decision.declined, language),
              })}
            </Alert>
          )}
          {/* One discount at a time: a chosen code is removed before another is added (issue 48). */}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
            {discount === 'default' ? (
              <Button variant="outlined" onClick={() => setDialog(true)}>
                {t('pages.checkout.addDiscount')}
              </Button>
            ) : (
              <Button variant="outlined" onClick={() => setDiscount('default')}>
                {t('pages.checkout.removeDiscount')}
              </Button>
            )}
            <Button variant="outlined" onClick={() => setRegionDialog(true)}>
              {t('pages.checkout.regionAndVat')}
            </Button>
          </Box>
        </Paper>
        <Box>
          {checkout.providerError && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {checkout.providerError}
            </Alert>
          )}
          <div className={FRAME_CLASS} />
        </Box>
      </Box>
      <Suspense fallback={null}>
        {dialog && (
          <DiscountDialog
            open
            onClose={() => setDialog(false)}
            onApplied={(chosen) => {
              setDiscount(chosen);
              setDialog(false);
            }}
          />
        )}
        {regionDialog && (
          <RegionDialog
            open
            onClose={() => setRegionDialog(false)}
            onSaved={() => {
              setRegionDialog(false);
              setCustomerVersion((n) => n + 1);
            }}
          />
        )}
      </Suspense>
      <Backdrop open={checkout.loading} sx={{ zIndex: (theme) => theme.zIndex.modal + 1, flexDirection: 'column', gap: 2, color: '#fff' }}>
        <CircularProgress size={80} color="primary" aria-label={t('pages.checkout.retrieving')} />
        <Typography role="status">{t('pages.checkout.retrieving')}</Typography>
      </Backdrop>
    </Box>
  );
}
