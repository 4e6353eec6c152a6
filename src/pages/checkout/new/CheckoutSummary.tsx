import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CheckoutEventsData } from '@paddle/paddle-js';
import { useTranslation } from 'react-i18next';
import type { CheckoutResponse } from '../../../../contract/billing.js';
import { discountText } from '../../../billing/catalogueText.js';
import { chargeSchedule, type Charge } from '../../../billing/charges.js';
import { toMinor } from '../../../billing/money.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatLongDate, formatPrice } from '../../../format/index.js';

/**
 * The summary as the provider reports it: what is due today (subtotal, discount, VAT; for a free trial
 * only the trial and nothing due), and for a plan what comes after today: the trial's end, the next
 * payment with its date, the discount with how long it lasts, and the regular price from when it
 * applies (src/billing/charges.ts). The discount is named, never by its id; one that takes off nothing
 * is not claimed. Every amount in the transaction's currency.
 */
export function CheckoutSummary({
  summary,
  currencyCode,
  transaction,
}: {
  summary: CheckoutEventsData | null;
  currencyCode: string;
  transaction: CheckoutResponse | null;
}) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const currency = summary?.currency_code ?? currencyCode;
  const money = (major: number | undefined) => formatPrice(major === undefined ? null : toMinor(major), currency, language);
  const charge = (value: Charge) => {
    const amount = formatPrice(value.amount, value.currencyCode, language);
    return value.plusTax ? t('pages.prices.plusTax', { amount }) : amount;
  };
  const date = (value: Date) => formatLongDate(value, language);
  const trialDays = transaction?.trialDays ?? null;
  const trialing = trialDays !== null && (summary?.items.some((item) => item.trial_period) ?? false);
  const today = summary?.totals;
  const recurring = summary?.recurring_totals;
  const interval = transaction?.interval ?? null;
  // The schedule needs the provider's figures for the plan's first payment and the currency they are in.
  const schedule =
    summary && recurring && interval && transaction
      ? chargeSchedule({
          now: new Date(),
          interval,
          trialDays: trialing ? trialDays : null,
          currencyCode: currency,
          recurring: { discount: toMinor(recurring.discount), tax: toMinor(recurring.tax), total: toMinor(recurring.total) },
          // The provider's subtotal of a payment is the plan's price before discount and tax.
          regularPrice: toMinor(recurring.subtotal),
          discount: transaction.discount && { ...transaction.discount, description: discountText(transaction.discount.i18n, language) },
        })
      : null;

  const rows: [string, string, string][] = trialing
    ? [[t('pages.prices.trialToday', { count: trialDays }), money(today?.total), 'trial']]
    : [
        [t('pages.checkout.subtotal'), money(today?.subtotal), 'subtotal'],
        ...(today && today.discount > 0 ? [[t('pages.checkout.discount'), `−${money(today.discount)}`, 'discount'] as [string, string, string]] : []),
        [t('pages.checkout.vat'), money(today?.tax), 'vat'],
      ];
  rows.push([t('pages.checkout.dueToday'), money(today?.total), 'dueToday']);

  const coverage = (covers: 'once' | number | 'every') =>
    covers === 'once' ? t('pages.prices.coversOnce') : covers === 'every' ? t('pages.prices.coversEvery') : t('pages.prices.coversFirst', { count: covers });
  const per = interval ? t(`pages.checkout.per.${interval}`) : '';

  return (
    <>
      <Box component="dl" aria-label={t('pages.checkout.summary')} sx={{ display: 'grid', gridTemplateColumns: '1fr max-content', rowGap: 1, columnGap: 2, my: 2 }}>
        {rows.map(([label, value, key]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt">{label}</Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: key === 'dueToday' ? 700 : 400 }} data-testid={`checkout-${key}`}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {schedule && (
        <Box component="section" aria-labelledby="checkout-after-today" data-testid="checkout-schedule">
          <Typography id="checkout-after-today" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('pages.prices.afterToday')}
          </Typography>
          <Box component="ul" sx={{ pl: 2.5, my: 1, '& li': { mb: 0.5 } }}>
            {schedule.trial && (
              <li data-testid="checkout-trial-note">{t('pages.prices.trial', { count: schedule.trial.days, date: date(schedule.trial.endsAt) })}</li>
            )}
            <li data-testid="checkout-next">{t('pages.prices.next', { date: date(schedule.next.at), amount: charge(schedule.next.charge) })}</li>
            {schedule.discount && (
              <li data-testid="checkout-discount-duration">
                {t('pages.prices.discount', { name: schedule.discount.description, amount: charge(schedule.discount.off), coverage: coverage(schedule.discount.covers) })}
              </li>
            )}
            {schedule.then ? (
              <li data-testid="checkout-then">{t('pages.prices.then', { date: date(schedule.then.from), amount: charge(schedule.then.charge), per })}</li>
            ) : (
              // One text per billing period ("Renews every year until you cancel."), never the object holding both.
              interval && <li data-testid="checkout-then">{t(`pages.prices.renews.${interval}`)}</li>
            )}
          </Box>
        </Box>
      )}
      {!schedule && transaction?.discount && today && today.discount > 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="checkout-discount-code">
          {t('pages.checkout.discountApplied', { name: discountText(transaction.discount.i18n, language) })}{' '}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            −{money(today.discount)}
          </Box>
        </Typography>
      )}
    </>
  );
}
