import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Invoice, PaymentStatus } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { ResponsiveTable } from '../../components/ResponsiveTable.js';
import { PurchaseItemName } from '../../components/PurchaseItemName.js';
import { useOpenInvoice } from '../../data/useApiAction.js';
import { formatDate, formatPrice } from '../../format/index.js';

type Refund = NonNullable<Invoice['refund']>;

/**
 * What became of a payment's refund, in words: its state with the amount, and why it was made (the
 * customer's return within 14 days, or a duplicate purchase the portal undid by itself).
 */
export function refundText(refund: Refund, currencyCode: string, language: string, t: (key: string, options?: Record<string, string>) => string): string {
  const amount = formatPrice(refund.amount, currencyCode, language);
  return `${t(`pages.purchaseHistory.refund.${refund.status}`, { amount })} · ${t(`pages.purchaseHistory.refund.reasons.${refund.reason}`)}`;
}

/** Filled chips only: their text keeps AA contrast (an outlined warning chip's orange on white does not). */
const STATUS_COLOR: Record<PaymentStatus, 'success' | 'default' | 'warning' | 'error'> = {
  paid: 'success',
  refunded: 'default',
  partially_refunded: 'warning',
  past_due: 'error',
  no_charge: 'default',
};

function StatusChip({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={STATUS_COLOR[status]} label={t(`pages.purchaseHistory.statuses.${status}`)} data-testid="purchase-status" />;
}

/** The invoice of a payment, asked for when clicked; a $0.00 payment (a trial's start) has nothing to invoice. */
function InvoiceAction({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const download = useOpenInvoice();
  if (invoice.paymentStatus === 'no_charge') {
    return (
      <Typography variant="body2" color="text.secondary" component="span" data-testid="purchase-no-invoice">
        {t('pages.purchaseHistory.noInvoice')}
      </Typography>
    );
  }
  return (
    <Button size="small" onClick={() => void download(invoice.invoiceUrl)} aria-label={t('pages.purchaseHistory.downloadLabel', { number: invoice.invoiceNumber ?? invoice.id })}>
      {t('pages.purchaseHistory.download')}
    </Button>
  );
}

/**
 * `/account/purchase-history` (spec section 2; issue 20: a history a bookkeeper can use): each payment
 * with its date, what was bought (plan or product version, named in the reader's language), its status
 * (paid, refunded, partially refunded, payment failed, no charge), the invoice number, the amount with
 * the tax it includes, its refund if any, and its invoice. The invoice link is the provider's and
 * short-lived, so it is asked for when the user clicks. A refund decided elsewhere (a return, a duplicate
 * undone) shows as soon as the live provider says so (resource `invoices`). Where the table does not fit
 * (phones) each payment is a card, so nothing is wider than the screen.
 */
export default function PurchaseHistoryPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { result, query } = useList<Invoice, DataError>({ resource: 'invoices', pagination: { mode: 'off' } });
  const invoices = query.isSuccess ? result.data : null;

  if (query.isLoading) return <FullPageSpinner />;
  const date = (iso: string | null) => (iso ? formatDate(iso, language) : '');
  const amount = (invoice: Invoice) => formatPrice(invoice.total.amount, invoice.total.currencyCode, language);
  // A $0.00 row has no tax worth a figure; any other shows its tax, also when it is zero.
  const tax = (invoice: Invoice) => (invoice.paymentStatus === 'no_charge' ? '' : formatPrice(invoice.tax.amount, invoice.tax.currencyCode, language));
  const refund = (invoice: Invoice) => (invoice.refund ? refundText(invoice.refund, invoice.total.currencyCode, language, t) : '');

  return (
    <PageCard title={t(titleKey)} testId="purchase-history" wide>
      {invoices?.length === 0 && <Typography>{t('pages.purchaseHistory.empty')}</Typography>}
      {invoices && invoices.length > 0 && (
        // Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): what and its status first, the
        // invoice always in view; each payment a card on a phone.
        <ResponsiveTable
          label={t(titleKey)}
          rows={invoices}
          rowKey={(invoice) => invoice.id}
          rowTestId={(invoice) => `purchase-${invoice.id}`}
          columns={[
            { key: 'item', header: t('pages.purchaseHistory.item'), cell: (invoice) => <PurchaseItemName items={invoice.items} /> },
            { key: 'status', header: t('pages.purchaseHistory.status'), cell: (invoice) => <StatusChip status={invoice.paymentStatus} /> },
            { key: 'date', header: t('pages.purchaseHistory.date'), cell: (invoice) => date(invoice.billedAt) },
            { key: 'amount', header: t('pages.purchaseHistory.amount'), cell: (invoice) => amount(invoice), align: 'right', nowrap: true },
            { key: 'tax', header: t('pages.purchaseHistory.tax'), cell: (invoice) => tax(invoice), align: 'right', nowrap: true, onCard: (invoice) => tax(invoice) !== '' },
            { key: 'refund', header: t('pages.purchaseHistory.refundColumn'), cell: (invoice) => <span data-testid="purchase-refund">{refund(invoice)}</span>, onCard: (invoice) => invoice.refund !== null },
            {
              key: 'invoiceNumber',
              header: t('pages.purchaseHistory.invoiceNumber'),
              cell: (invoice) => <span data-testid="purchase-invoice-number">{invoice.invoiceNumber ?? ''}</span>,
              onCard: (invoice) => invoice.invoiceNumber !== null,
            },
          ]}
          actionsHeader={t('pages.purchaseHistory.invoice')}
          actions={(invoice) => <InvoiceAction invoice={invoice} />}
        />
      )}
    </PageCard>
  );
}
