import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '../../../contract/subscription.js';
import { http } from '../../../providers/index.js';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { formatPrice } from '../../billing/money.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';

/**
 * `/account/purchase-history` (spec section 2): each payment with its date, what was bought (plan or
 * product version), the amount, and its invoice. The invoice link is the provider's and short-lived, so
 * it is asked for when the user clicks.
 */
export default function PurchaseHistoryPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const [invoices, setInvoices] = useState<Invoice[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    billingApi
      .invoices()
      .then(setInvoices)
      .catch((failure: unknown) => setError(messageKeyOf(failure)));
  }, []);

  async function download(invoice: Invoice) {
    setError(null);
    try {
      const { url } = await http<{ url: string }>(invoice.invoiceUrl.replace(/^\/api/, ''));
      // The provider's link answers the PDF as an attachment: the browser downloads it and stays here.
      window.location.assign(url);
    } catch (failure) {
      setError(messageKeyOf(failure));
    }
  }

  if (!invoices && !error) return <FullPageSpinner />;
  const date = (iso: string | null) => (iso ? new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso)) : '');

  return (
    <PageCard title={t(titleKey)} testId="purchase-history">
      <ErrorAlert messageKey={error} />
      {invoices?.length === 0 && <Typography>{t('pages.purchaseHistory.empty')}</Typography>}
      {invoices && invoices.length > 0 && (
        <Table size="small" aria-label={t(titleKey)}>
          <TableHead>
            <TableRow>
              <TableCell>{t('pages.purchaseHistory.date')}</TableCell>
              <TableCell>{t('pages.purchaseHistory.item')}</TableCell>
              <TableCell align="right">{t('pages.purchaseHistory.amount')}</TableCell>
              <TableCell>{t('pages.purchaseHistory.invoice')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invoices.map((invoice) => (
              <TableRow key={invoice.id}>
                <TableCell>{date(invoice.billedAt)}</TableCell>
                <TableCell>{invoice.items.map((item) => item.name).join(', ')}</TableCell>
                <TableCell align="right">{formatPrice(invoice.total.amount, invoice.total.currencyCode, language)}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => void download(invoice)} aria-label={t('pages.purchaseHistory.downloadLabel', { number: invoice.invoiceNumber ?? invoice.id })}>
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
