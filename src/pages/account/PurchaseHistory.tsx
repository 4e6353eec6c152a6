import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '../../../contract/subscription.js';
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

/**
 * `/account/purchase-history` (spec section 2): each payment with its date, what was bought (plan or
 * product version, named in the reader's language), the amount, its refund if any, and its invoice. The
 * invoice link is the provider's and short-lived, so it is asked for when the user clicks. A refund
 * decided elsewhere (a return, a duplicate undone) shows as soon as the live provider says so (resource
 * `invoices`).
 */
export default function PurchaseHistoryPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { result, query } = useList<Invoice, DataError>({ resource: 'invoices', pagination: { mode: 'off' } });
  const invoices = query.isSuccess ? result.data : null;
  const download = useOpenInvoice();

  if (query.isLoading) return <FullPageSpinner />;
  const date = (iso: string | null) => (iso ? formatDate(iso, language) : '');

  return (
    <PageCard title={t(titleKey)} testId="purchase-history" wide>
      {invoices?.length === 0 && <Typography>{t('pages.purchaseHistory.empty')}</Typography>}
      {invoices && invoices.length > 0 && (
        <Table size="small" aria-label={t(titleKey)}>
          <TableHead>
            <TableRow>
              <TableCell>{t('pages.purchaseHistory.date')}</TableCell>
              <TableCell>{t('pages.purchaseHistory.item')}</TableCell>
              <TableCell align="right">{t('pages.purchaseHistory.amount')}</TableCell>
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
                <TableCell align="right">{formatPrice(invoice.total.amount, invoice.total.currencyCode, language)}</TableCell>
                <TableCell data-testid="purchase-refund">{invoice.refund ? refundText(invoice.refund, invoice.total.currencyCode, language, t) : ''}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => void download(invoice.invoiceUrl)} aria-label={t('pages.purchaseHistory.downloadLabel', { number: invoice.invoiceNumber ?? invoice.id })}>
                    {t('pages.purchaseHistory.download')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </PageCard>
  );
}
