import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CheckoutEventsData } from '@paddle/paddle-js';
import { useTranslation } from 'react-i18next';
import type { CheckoutResponse } from '../../../../contract/billing.js';
import { toMinor } from '../../../billing/money.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatPrice } from '../../../format/index.js';

/**
 * The summary as the provider reports it (subtotal, VAT, discount, due today), the trial, and the
 * discount by its name and what it takes off (never by its id); one that takes off nothing is not claimed.
 */
export function CheckoutSummary({ summary, currencyCode, applied }: { summary: CheckoutEventsData | null; currencyCode: string; applied: CheckoutResponse['discount'] }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const currency = summary?.currency_code ?? currencyCode;
  const money = (major: number | undefined) => formatPrice(major === undefined ? null : toMinor(major), currency, language);
  const totals = summary?.recurring_totals && summary.items.some((item) => item.trial_period) ? summary.recurring_totals : summary?.totals;
  const trial = summary?.items.find((item) => item.trial_period)?.trial_period;
  return (
    <>
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
      {applied && totals && totals.discount > 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="checkout-discount-code">
          {t('pages.checkout.discountApplied', { name: applied.description })}{' '}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            −{money(totals.discount)}
          </Box>
        </Typography>
      )}
    </>
  );
}
