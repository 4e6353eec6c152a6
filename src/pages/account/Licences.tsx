import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useList, useOne } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PerpetualLicence } from '../../../contract/billing.js';
import type { SeatsResponse } from '../../../contract/licensing.js';
import type { Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { useOpenInvoice } from '../../data/useApiAction.js';
import { formatLongDate, formatPrice } from '../../format/index.js';
import { useRecordDownload } from '../../licensing/useRecordDownload.js';
import type { LicenceReturn } from '../../billing/types.js';
import { paths } from '../../routing/paths.js';
import { useReadOnly } from '../../data/readOnlyView.js';

/**
 * Spec section 9: a bought licence can be returned for a full refund within 14 days. The server says until
 * when (null once it cannot); a page left open past that moment stops offering it too.
 */
export function returnableNow(licence: Pick<PerpetualLicence, 'returnableUntil' | 'paid'>, now: Date): boolean {
  return licence.returnableUntil !== null && licence.paid !== null && Date.parse(licence.returnableUntil) > now.getTime();
}

/**
 * `/account/licences` (issue 16): what the user owns. Each perpetual licence with its release, when it was
 * bought, until when it gets free updates, the builds of its release to download, its invoice, and, within
 * 14 days of the purchase, its return for a full refund (confirmed first: the money comes back, the
 * licence ends now). Beside them, the subscription's entitlement, and how many of the user's seats are in
 * use. It follows changes made elsewhere (a webhook, another tab) through the live provider (resources
 * `licences`, `seats`, `subscription`).
 */
export default function LicencesPage({ titleKey }: { titleKey: string }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const licenceList = useList<PerpetualLicence, DataError>({ resource: 'licences', pagination: { mode: 'off' } });
  const seatsOne = useOne<SeatsResponse, DataError>({ resource: 'seats', id: 'me' });
  const subscription = useOne<Subscription, DataError>({ resource: 'subscription', id: 'me' });
  const { mutate: returnLicence, mutation: returningNow } = useCustomMutation<LicenceReturn, DataError>();
  const [returning, setReturning] = useState<PerpetualLicence | null>(null);
  const recordDownload = useRecordDownload();
  const openInvoice = useOpenInvoice();
  const busy = readOnly || returningNow.isPending;

  const date = (iso: string | null | undefined) => (iso ? formatLongDate(iso, language) : '');
  const nameOf = (licence: PerpetualLicence) => licence.productName ?? (licence.release ? t('pages.licences.releaseName', { release: licence.release }) : t('app.title'));

  const download = async (licence: PerpetualLicence) => {
    if (licence.invoiceUrl) await openInvoice(licence.invoiceUrl);
  };

  function giveBack(licence: PerpetualLicence) {
    returnLicence(
      {
        url: `/perpetual/license/${encodeURIComponent(licence.licenceId)}/return`,
        method: 'post',
        values: {},
        successNotification: (response) =>
          response
            ? { type: 'success', message: t('pages.licences.returned', { name: nameOf(licence), amount: formatPrice(response.data.refund.amount, response.data.refund.currencyCode, language) }) }
            : false,
      },
      {
        // Also after a failure: a licence returned in another tab leaves the list.
        onSettled: () => {
          setReturning(null);
          void licenceList.query.refetch();
          void seatsOne.query.refetch();
        },
      },
    );
  }

  if (licenceList.query.isLoading || seatsOne.query.isLoading || subscription.query.isLoading) return <FullPageSpinner />;
  if (!licenceList.query.isSuccess || !seatsOne.result) return null;
  const licences = licenceList.result.data;
  const seats = seatsOne.result;
  const live = subscription.result && subscription.result.status !== 'canceled' ? subscription.result : null;
  const now = new Date();

  return (
    <PageCard title={t(titleKey)} testId="licences-page">

      <Box component="section" aria-labelledby="licences-subscription" sx={{ mb: 3 }} data-testid="licences-subscription">
        <Typography id="licences-subscription" variant="h6" component="h2" gutterBottom>
          {t('pages.licences.subscription')}
        </Typography>
        {live ? (
          <>
            <Typography>
              {live.interval === 'year' ? t('pages.subscription.yearly') : t('pages.subscription.monthly')} ·{' '}
              {t(`pages.subscription.statuses.${live.scheduledChange?.action === 'cancel' ? 'cancelling' : live.status}`)}
            </Typography>
            <Typography color="text.secondary">
              {live.scheduledChange?.action === 'cancel'
                ? t('pages.licences.accessUntil', { date: date(live.scheduledChange.effectiveAt) })
                : live.nextBilledAt
                  ? t('pages.licences.nextCharge', { date: date(live.nextBilledAt) })
                  : ''}
            </Typography>
            <Button sx={{ mt: 1, px: 0 }} component={RouterLink} to={localize(paths.subscription)}>
              {t('pages.choosePlan.manage')}
            </Button>
          </>
        ) : (
          <>
            <Typography>{t('pages.licences.noSubscription')}</Typography>
            <Button sx={{ mt: 1, px: 0 }} component={RouterLink} to={localize(paths.choosePlan)}>
              {t('pages.subscription.choosePlan')}
            </Button>
          </>
        )}
      </Box>

      <Box component="section" aria-labelledby="licences-perpetual">
        <Typography id="licences-perpetual" variant="h6" component="h2" gutterBottom>
          {t('pages.licences.perpetual')}
        </Typography>
        <Typography sx={{ mb: 2 }} data-testid="licences-seats">
          {t('pages.deviceManager.usage', { used: seats.seats.length, limit: seats.limit })} ·{' '}
          <Link component={RouterLink} to={localize(paths.deviceManager)}>
            {t('pages.licences.manageDevices')}
          </Link>
        </Typography>
        {licences.length === 0 ? (
          <>
            <Typography>{t('pages.licences.empty')}</Typography>
            <Button sx={{ mt: 1, px: 0 }} component={RouterLink} to={localize(paths.perpetualProducts)}>
              {t('pages.licences.shop')}
            </Button>
          </>
        ) : (
          <Box sx={{ display: 'grid', gap: 2 }}>
            {licences.map((licence) => {
              const name = nameOf(licence);
              const rows: [string, string][] = [
                [t(licence.source === 'purchase' ? 'pages.licences.purchasedAt' : 'pages.licences.addedAt'), date(licence.purchasedAt)],
                // Issue 48 item 11: updates that ended say so, not only their date.
                [
                  t(licence.updatesUntil && Date.parse(licence.updatesUntil) <= now.getTime() ? 'pages.licences.updatesEnded' : 'pages.licences.updatesUntil'),
                  licence.updatesUntil ? date(licence.updatesUntil) : t('pages.licences.noEnd'),
                ],
              ];
              if (licence.paid) rows.push([t('pages.licences.paid'), formatPrice(licence.paid.amount, licence.paid.currencyCode, language)]);
              const returnable = returnableNow(licence, now);
              if (returnable) rows.push([t('pages.licences.returnUntil'), date(licence.returnableUntil)]);
              return (
                <Card key={licence.licenceId} variant="outlined" component="article" aria-label={name} data-testid="licence">
                  <CardContent>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                      <Typography variant="h6" component="h3">
                        {name}
                      </Typography>
                      {licence.source !== 'purchase' && <Chip size="small" label={t(`pages.licences.sources.${licence.source}`)} />}
                    </Box>
                    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 0.5, my: 1 }}>
                      {rows.map(([label, value]) => (
                        <Box key={label} sx={{ display: 'contents' }}>
                          <Typography component="dt" color="text.secondary">
                            {label}
                          </Typography>
                          <Typography component="dd" sx={{ m: 0 }}>
                            {value}
                          </Typography>
                        </Box>
                      ))}
                    </Box>
                    {/* Issue 46 item 1: bought again after a return: not returnable, and why. */}
                    {licence.refundUsed && licence.release && (
                      <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="licence-refund-used">
                        {t('pages.licences.refundUsed', { release: licence.release })}
                      </Typography>
                    )}
                    {licence.downloads.length > 0 && (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }} data-testid="licence-downloads">
                        {/* The version once, beside the buttons: in each label it did not fit a phone (issue 48 item 11). */}
                        <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
                          {t('download.version', { version: [...new Set(licence.downloads.map((release) => release.version))].join(', ') })}
                        </Typography>
                        {licence.downloads.map((release) => (
                          <Button key={release.id} size="small" variant="outlined" href={release.url} onClick={() => recordDownload(release)}>
                            {t('download.build', { version: release.version, platform: t(`download.platforms.${release.platform}`) })}
                          </Button>
                        ))}
                      </Box>
                    )}
                  </CardContent>
                  {(licence.invoiceUrl || returnable) && (
                    <CardActions>
                      {licence.invoiceUrl && (
                        <Button size="small" onClick={() => void download(licence)} aria-label={t('pages.licences.invoiceLabel', { name })}>
                          {t('pages.licences.invoice')}
                        </Button>
                      )}
                      {returnable && (
                        <Button size="small" color="error" disabled={busy} onClick={() => setReturning(licence)}>
                          {t('pages.licences.return')}
                        </Button>
                      )}
                    </CardActions>
                  )}
                </Card>
              );
            })}
          </Box>
        )}
      </Box>

      <ConfirmDialog
        open={returning !== null}
        title={t('pages.licences.returnTitle', { name: returning ? nameOf(returning) : '' })}
        confirmLabel={t('pages.licences.confirmReturn')}
        cancelLabel={t('pages.licences.keep')}
        destructive
        busy={busy}
        onCancel={() => setReturning(null)}
        onConfirm={() => {
          if (returning) giveBack(returning);
        }}
      >
        {returning?.paid && t('pages.licences.returnText', { amount: formatPrice(returning.paid.amount, returning.paid.currencyCode, language) })}
      </ConfirmDialog>
    </PageCard>
  );
}
