import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { EntitlementItem } from '../../../../contract/licensing.js';
import type { Overview } from '../../../../contract/overview.js';
import { CARD_WARNING_DAYS, cardExpiresAt } from '../../../../contract/subscription-values.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatLongDate, formatPrice } from '../../../format/index.js';
import { OverviewCard } from './OverviewCard.js';
import { paths } from '../../../routing/paths.js';

type Money = { amount: number; currencyCode: string };

function useFormats() {
  const { language } = useLocale();
  return {
    date: (iso: string) => formatLongDate(iso, language),
    money: (money: Money) => formatPrice(money.amount, money.currencyCode, language),
  };
}

/** The plan: the subscription's plan, price and what comes next (charge, trial end, end), or the free plan. */
export function PlanCard({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  const { date, money } = useFormats();
  const subscription = overview.subscription;
  const live = subscription !== null && subscription.status !== 'canceled';
  const lines: string[] = [];
  let name = t('pages.home.freePlan');
  if (subscription && live) {
    name = subscription.interval ? t(`pages.home.planName.${subscription.interval}`) : t('pages.home.subscription');
    if (subscription.price && subscription.interval) {
      lines.push(`${t(`pages.subscription.pricePer.${subscription.interval}`, { price: money(subscription.price) })} · ${t('pages.choosePlan.excludingTax')}`);
    } else if (overview.unavailable.includes('price')) {
      lines.push(t('pages.home.priceUnavailable'));
    }
    if (subscription.trialEndsAt) lines.push(t('pages.home.trialUntil', { date: date(subscription.trialEndsAt) }));
    // Issue 46 item 5: when Paddle tries the card again (or, on the last try, when the subscription ends).
    const due = subscription.status === 'past_due' ? subscription.pastDue : null;
    if (due) lines.push(t('pages.home.pastDueRetry', { amount: money(due.amount), date: date(due.nextRetryAt ?? due.endsAt) }));
    else if (subscription.status === 'past_due') lines.push(t('pages.home.pastDue'));
    // Issue 46 item 7: a pause coming, or running.
    const pause = subscription.pause;
    if (pause && subscription.status !== 'paused') lines.push(t('pages.home.pausesOn', { date: date(pause.startsAt) }));
    if (pause && subscription.status === 'paused') lines.push(pause.resumesAt ? t('pages.home.pausedUntil', { date: date(pause.resumesAt) }) : t('pages.home.pausedOpen'));
    if (subscription.endsAt) lines.push(t('pages.home.endsOn', { date: date(subscription.endsAt) }));
    else if (subscription.nextCharge?.amount) {
      lines.push(t('pages.home.nextCharge', { amount: money(subscription.nextCharge.amount), date: date(subscription.nextCharge.at) }));
    } else if (subscription.nextCharge) lines.push(t('pages.home.nextChargeOn', { date: date(subscription.nextCharge.at) }));
  } else {
    if (subscription?.endsAt) lines.push(t('pages.home.endedOn', { date: date(subscription.endsAt) }));
    lines.push(overview.entitlement.exportEnabled ? t('pages.home.freePlanCovered') : t('pages.home.freePlanText'));
  }
  return (
    <OverviewCard
      id="plan"
      title={t('pages.home.plan')}
      link={live ? { to: paths.subscription, label: t('pages.home.manageSubscription') } : { to: paths.choosePlan, label: t('pages.home.choosePlan') }}
    >
      <Typography variant="subtitle1" component="p" data-testid="home-plan-name">
        {name}
      </Typography>
      {lines.map((line) => (
        <Typography key={line} variant="body2" color="text.secondary">
          {line}
        </Typography>
      ))}
    </OverviewCard>
  );
}

/** How the subscription is paid, as the payment options page shows it. */
export function PaymentMethodCard({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  const method = overview.paymentMethod;
  let text: string;
  if (overview.unavailable.includes('paymentMethod')) text = t('pages.home.paymentMethodUnavailable');
  else if (method?.card) {
    text = t('pages.paymentOptions.card', {
      brand: method.card.brand.toUpperCase(),
      last4: method.card.last4,
      expiry: `${String(method.card.expiryMonth).padStart(2, '0')}/${method.card.expiryYear}`,
    });
  } else if (method) text = t(`pages.paymentOptions.types.${method.type}`, { defaultValue: method.type });
  else text = t('pages.home.noPaymentMethod');
  return (
    <OverviewCard id="payment-method" title={t('pages.subscription.paymentMethod')} link={{ to: paths.paymentOptions, label: t('routes.paymentOptions') }}>
      <Typography variant="body2">{text}</Typography>
    </OverviewCard>
  );
}

/** One line per thing the user holds: the desktop API's own list (entitlement.items). */
function itemText(item: EntitlementItem, t: (key: string, values?: Record<string, string>) => string, date: (iso: string) => string): { primary: string; secondary: string } {
  switch (item.kind) {
    case 'subscription':
      return {
        primary: item.interval ? t(`pages.home.planName.${item.interval}`) : t('pages.home.subscription'),
        secondary: item.status === 'trialing' && item.trialEndsAt ? t('pages.home.trialUntil', { date: date(item.trialEndsAt) }) : t(`pages.home.status.${item.status}`),
      };
    case 'licence':
      return {
        primary: t('pages.home.licence', { name: item.productName }),
        // Issue 48 item 11: updates that ended say so, not only their date.
        secondary: item.updatesUntil
          ? t(Date.parse(item.updatesUntil) <= Date.now() ? 'pages.home.updatesEnded' : 'pages.home.updatesUntil', { date: date(item.updatesUntil) })
          : t('pages.licences.noEnd'),
      };
    case 'access':
      return { primary: t('pages.home.access'), secondary: t('pages.home.accessUntil', { date: date(item.endsAt) }) };
    case 'lite':
      return { primary: t('pages.home.lite'), secondary: item.channel };
  }
}

/** What the user may use: every entitlement with its dates, and whether export and save are on. */
export function EntitlementsCard({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  const { date } = useFormats();
  const { entitlement } = overview;
  return (
    <OverviewCard id="entitlements" title={t('pages.home.entitlements')} link={{ to: paths.licences, label: t('routes.licences') }}>
      {entitlement.items.length > 0 ? (
        <List dense disablePadding>
          {entitlement.items.map((item, index) => {
            const text = itemText(item, t, date);
            return (
              <ListItem key={item.kind === 'licence' ? item.id : `${item.kind}-${index}`} disableGutters data-testid={`home-item-${item.kind}`}>
                <ListItemText primary={text.primary} secondary={text.secondary} />
              </ListItem>
            );
          })}
        </List>
      ) : (
        <Typography variant="body2">{t('pages.home.nothingHeld')}</Typography>
      )}
      <Typography variant="body2" color="text.secondary" data-testid="home-export">
        {entitlement.exportEnabled ? t('pages.home.exportEnabled') : t('pages.home.exportDisabled')}
      </Typography>
    </OverviewCard>
  );
}

/** Devices attached of the seats the entitlements allow. */
export function DevicesCard({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  return (
    <OverviewCard id="devices" title={t('pages.home.devices')} link={{ to: paths.deviceManager, label: t('routes.deviceManager') }}>
      <Typography variant="body2" data-testid="home-seats">
        {t('pages.home.seats', { used: overview.seats.used, limit: overview.seats.limit })}
      </Typography>
    </OverviewCard>
  );
}

const DAY_MS = 86_400_000;
/** A trial this close to its end is worth a line among what needs attention. */
const TRIAL_ENDING_MS = 3 * DAY_MS;

/** One thing that needs attention: its text's key under `pages.home`, what the text names, and the page that settles it. */
export interface Attention {
  key: 'attentionPastDue' | 'attentionCardExpired' | 'attentionCardExpiring' | 'attentionEnding' | 'attentionPaused' | 'attentionTrialEnding';
  to: string;
  amount?: Money;
  date?: string;
  last4?: string;
  expiry?: string;
}

/**
 * What needs the user's attention (issue 48 item 8), most urgent first, each with the page that settles it:
 * an overdue payment, a card that expired or expires within 30 days (the warning mail's rule), a subscription that ends or is
 * paused, a trial about to be charged.
 */
export function attentionOf(overview: Overview, now: Date): Attention[] {
  const items: Attention[] = [];
  const subscription = overview.subscription;
  if (!subscription || subscription.status === 'canceled') return items;
  if (subscription.status === 'past_due') items.push({ key: 'attentionPastDue', to: paths.paymentOptions, ...(subscription.pastDue ? { amount: subscription.pastDue.amount } : {}) });
  const card = overview.paymentMethod?.card;
  if (card && !subscription.endsAt) {
    // The server's rule for its warning mail (a card works through its expiry month, warned 30 days before).
    const left = cardExpiresAt(card.expiryMonth, card.expiryYear).getTime() - now.getTime();
    const expiry = `${String(card.expiryMonth).padStart(2, '0')}/${card.expiryYear}`;
    if (left <= 0) items.push({ key: 'attentionCardExpired', to: paths.paymentOptions, last4: card.last4 });
    else if (left <= CARD_WARNING_DAYS * DAY_MS) items.push({ key: 'attentionCardExpiring', to: paths.paymentOptions, last4: card.last4, expiry });
  }
  if (subscription.endsAt) items.push({ key: 'attentionEnding', to: paths.subscription, date: subscription.endsAt });
  else if (subscription.status === 'paused') items.push({ key: 'attentionPaused', to: paths.subscription });
  else if (subscription.trialEndsAt && Date.parse(subscription.trialEndsAt) - now.getTime() <= TRIAL_ENDING_MS) {
    items.push({ key: 'attentionTrialEnding', to: paths.subscription, date: subscription.trialEndsAt });
  }
  return items;
}

/** The first card: what needs attention, each a link to the page that settles it, or that nothing does. */
export function AttentionCard({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { date, money } = useFormats();
  const items = attentionOf(overview, new Date());
  return (
    <OverviewCard id="attention" title={t('pages.home.attention')}>
      {items.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('pages.home.attentionNone')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {items.map((item) => (
            <ListItem key={item.key} disableGutters data-testid={`home-${item.key}`}>
              <Link component={RouterLink} to={localize(item.to)}>
                {t(`pages.home.${item.key}`, {
                  amount: item.amount ? money(item.amount) : '',
                  date: item.date ? date(item.date) : '',
                  last4: item.last4 ?? '',
                  expiry: item.expiry ?? '',
                })}
              </Link>
            </ListItem>
          ))}
        </List>
      )}
    </OverviewCard>
  );
}

/** The cards of the overview, in reading order. */
export function OverviewCards({ overview }: { overview: Overview }) {
  return (
    <>
      <PlanCard overview={overview} />
      <PaymentMethodCard overview={overview} />
      <EntitlementsCard overview={overview} />
      <DevicesCard overview={overview} />
    </>
  );
}
