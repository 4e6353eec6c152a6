import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Invoice, PaymentStatus } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
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
 * undone) shows as soon as the live provider says so (resource `invoices`). Under the small breakpoint
 * (phones) each payment is a card, so nothing is wider than the screen.
 */
export default function PurchaseHistoryPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const theme = useTheme();
  // Measured on the first render, so a phone never lays out the table first.
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
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
      {invoices && invoices.length > 0 && phone && (
        <Box component="ul" aria-label={t(titleKey)} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
          {invoices.map((invoice) => (
            <Card component="li" variant="outlined" key={invoice.id} data-testid={`purchase-${invoice.id}`}>
              <CardContent sx={{ display: 'grid', gap: 0.5, overflowWrap: 'anywhere' }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'baseline' }}>
                  <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                    <PurchaseItemName items={invoice.items} />
                  </Typography>
                  <StatusChip status={invoice.paymentStatus} />
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {date(invoice.billedAt)}
                  {invoice.invoiceNumber ? ` · ${t('pages.purchaseHistory.invoiceNumber')} ${invoice.invoiceNumber}` : ''}
                </Typography>
                <Typography>
                  {t('pages.purchaseHistory.amount')}: {amount(invoice)}
                </Typography>
                {tax(invoice) && (
                  <Typography variant="body2" color="text.secondary">
                    {t('pages.purchaseHistory.tax')}: {tax(invoice)}
                  </Typography>
                )}
                {invoice.refund && (
                  <Typography variant="body2" data-testid="purchase-refund">
                    {refund(invoice)}
                  </Typography>
                )}
                <Box>
                  <InvoiceAction invoice={invoice} />
                </Box>
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
      {invoices && invoices.length > 0 && !phone && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={t(titleKey)}>
            <TableHead>
              <TableRow>
                <TableCell>{t('pages.purchaseHistory.date')}</TableCell>
                <TableCell>{t('pages.purchaseHistory.item')}</TableCell>
                <TableCell>{t('pages.purchaseHistory.status')}</TableCell>
                <TableCell>{t('pages.purchaseHistory.invoiceNumber')}</TableCell>
                <TableCell align="right">{t('pages.purchaseHistory.amount')}</TableCell>
                <TableCell align="right">{t('pages.purchaseHistory.tax')}</TableCell>
                <TableCell>{t('pages.purchaseHistory.refundColumn')}</TableCell>
                <TableCell>{t('pages.purchaseHistory.invoice')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invoices.map((invoice) => (
                <TableRow key={invoice.id} data-testid={`purchase-${invoice.id}`}>
                  <TableCell>{date(invoice.billedAt)}</TableCell>
                  <TableCell>
                    <PurchaseItemName items={invoice.items} />
                  </TableCell>
                  <TableCell>
                    <StatusChip status={invoice.paymentStatus} />
                  </TableCell>
                  <TableCell data-testid="purchase-invoice-number">{invoice.invoiceNumber ?? ''}</TableCell>
                  <TableCell align="right">{amount(invoice)}</TableCell>
                  <TableCell align="right">{tax(invoice)}</TableCell>
                  <TableCell data-testid="purchase-refund">{refund(invoice)}</TableCell>
                  <TableCell>
                    <InvoiceAction invoice={invoice} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </PageCard>
  );
}
