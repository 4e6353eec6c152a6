import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useOne } from '@refinedev/core';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import type { Overview } from '../../../contract/overview.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { errorText } from '../../../providers/errors.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { PageCard } from '../../components/PageCard.js';
import { OverviewCard } from './home/OverviewCard.js';
import { AttentionCard, OverviewCards } from './home/OverviewCards.js';

/**
 * The root path (issue 20): the account home, an overview only (issue 48 item 8), from one answer
 * (`overview`, which the live provider refreshes on every subscription, payment, licence and seat event): what
 * needs attention, the plan with its price and next charge, the payment method, what the user holds (the
 * desktop API's own entitlement), devices of seats and the download; each card links to the page that
 * manages it. The profile (details, password, coupons, deleting the account) is /account/profile's alone.
 */
export default function Home({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { result: answer, query } = useOne<Overview, DataError>({ resource: 'overview', id: 'me' });
  // The answer arrives as a store update, which React renders in one piece; the cards render from a deferred
  // copy, in a transition, in slices.
  const overview = useDeferredValue(answer);
  return (
    <PageCard title={t(titleKey)} testId="home">
      {overview ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, gap: 2, mb: 1 }}>
          <Box sx={{ gridColumn: { sm: '1 / -1' }, display: 'grid' }}>
            <AttentionCard overview={overview} />
          </Box>
          <OverviewCards overview={overview} />
          <Box sx={{ gridColumn: { sm: '1 / -1' }, display: 'grid' }}>
            <OverviewCard id="download" title={t('download.title')}>
              <DownloadShapelab />
            </OverviewCard>
          </Box>
        </Box>
      ) : query.isError ? (
        <Alert severity="error">{errorText(t, query.error)}</Alert>
      ) : (
        <FullPageSpinner />
      )}
    </PageCard>
  );
}
