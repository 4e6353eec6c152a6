import Box from '@mui/material/Box';
import { useCustomMutation } from '@refinedev/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanChangePreview, Subscription } from '../../contract/subscription.js';
import type { DataError } from '../../providers/dataProvider.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useLocale } from '../components/LocaleScope.js';
import { formatLongDate, formatPrice } from '../format/index.js';

/**
 * A switch between the monthly and the yearly plan (spec section 4), wherever it is offered (the
 * subscription page, choose-plan): the server's preview of the charge first (`POST
 * /subscription/change/preview`), then a confirmation that states it, then `POST /subscription/change`.
 * `ask` starts it; `dialog` is the confirmation to render; `settled` runs after the switch, whatever its
 * outcome (the caller reads the subscription again).
 */
export function usePlanSwitch(trialing: boolean, settled: () => void): { ask: (interval: 'month' | 'year') => void; dialog: ReactNode; busy: boolean } {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { mutate: change, mutateAsync: preview, mutation } = useCustomMutation<Subscription | PlanChangePreview, DataError>();
  const [pending, setPending] = useState<PlanChangePreview | null>(null);
  const busy = mutation.isPending;
  const date = (iso: string) => formatLongDate(iso, language);

  function ask(interval: 'month' | 'year') {
    void preview({ url: '/subscription/change/preview', method: 'post', values: { interval } })
      .then((answer) => setPending(answer.data as PlanChangePreview))
      // The refusal (locked before renewal, nothing to charge yet) is told by the error notification.
      .catch(() => null);
  }

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title={pending ? t(`pages.prices.switchTo.${pending.interval}`) : ''}
      confirmLabel={t('pages.subscription.confirmSwitch')}
      cancelLabel={t('pages.subscription.keep')}
      busy={busy}
      onCancel={() => setPending(null)}
      onConfirm={() => {
        if (!pending) return;
        change(
          { url: '/subscription/change', method: 'post', values: { interval: pending.interval }, successNotification: () => ({ type: 'success', message: t('pages.subscription.switched') }) },
          {
            onSettled: () => {
              setPending(null);
              settled();
            },
          },
        );
      }}
    >
      {pending && (
        <>
          <Box component="span" sx={{ display: 'block' }} data-testid="switch-charge">
            {t(trialing ? 'pages.subscription.switchChargeLater' : 'pages.subscription.switchChargeNow', {
              amount: formatPrice(pending.charge.amount, pending.charge.currencyCode, language),
              tax: formatPrice(pending.tax.amount, pending.tax.currencyCode, language),
              date: date(pending.chargedAt),
            })}
          </Box>
          <Box component="span" sx={{ display: 'block', mt: 1 }}>
            {t('pages.subscription.switchCycle', { start: date(pending.newPeriod.startsAt), end: date(pending.newPeriod.endsAt) })}
          </Box>
        </>
      )}
    </ConfirmDialog>
  );
  return { ask, dialog, busy };
}
