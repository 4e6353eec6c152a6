import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '../../../../contract/users.js';
import { useOpenInvoice } from '../../../data/useApiAction.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime, formatPrice } from '../../../format/index.js';
import { Empty, Item, Items, Section } from './Section.js';
import type { StaffPowers } from '../users/useStaffPowers.js';

type Payment = AdminUserDetail['transactions'][number];

/** Paddle's transaction states that have an invoice to open. */
const INVOICED = new Set(['completed', 'billed', 'paid', 'past_due']);

/** The user's payments, newest first: amount, state, the portal's refund of it, and its invoice. */
export function PaymentsSection({ detail, allowed }: { detail: AdminUserDetail; allowed: StaffPowers }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const openInvoice = useOpenInvoice();
  const { transactions } = detail;
  const what = (payment: Payment) => t(payment.subscriptionId ? 'adminUser:payments.subscription' : 'adminUser:payments.oneOff');
  return (
    <Section title={t('adminUser:payments.title')} testId="user-payments">
      {transactions.length === 0 ? (
        <Empty>{t('adminUser:payments.none')}</Empty>
      ) : (
        <Items label={t('adminUser:payments.title')}>
          {transactions.map((payment) => (
            <Item key={payment.id} testId={`payment-${payment.id}`}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {formatPrice(payment.total.amount, payment.total.currencyCode, language)} · {what(payment)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
                    {payment.billedAt ? formatDateTime(payment.billedAt, language) : '—'} · {t(`adminUser:payments.statuses.${payment.status}`, { defaultValue: payment.status })}
                    {payment.refundStatus && (
                      <span data-testid="payment-refund"> · {t(`adminUser:payments.refunds.${payment.refundStatus}`, { defaultValue: payment.refundStatus })}</span>
                    )}
                    {` · ${payment.id}`}
                  </Typography>
                </Box>
                {allowed.invoice && INVOICED.has(payment.status) && payment.total.amount > 0 && (
                  <Button
                    size="small"
                    aria-label={t('adminUser:payments.invoiceOf', { id: payment.id })}
                    onClick={() => void openInvoice(`/users/${encodeURIComponent(detail.user.id)}/transactions/${encodeURIComponent(payment.id)}/invoice`)}
                  >
                    {t('adminUser:payments.invoice')}
                  </Button>
                )}
              </Box>
            </Item>
          ))}
        </Items>
      )}
    </Section>
  );
}
