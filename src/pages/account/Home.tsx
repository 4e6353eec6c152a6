import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useOne } from '@refinedev/core';
import { lazy, useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Overview } from '../../../contract/overview.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { errorText } from '../../../providers/errors.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { PageCard } from '../../components/PageCard.js';
import { Staggered } from '../../components/Staggered.js';
import { OverviewCard } from './home/OverviewCard.js';
import { OverviewCards } from './home/OverviewCards.js';

/** The profile's sections (with their form validation) load after the overview: the home's first paint stays light (bundle budget). */
const ProfileSections = lazy(() => import('./profile/ProfileSections.js').then((module) => ({ default: module.ProfileSections })));

/**
 * The root path (issue 20): the account home. First an overview from one answer (`overview`, which the
 * live provider refreshes on every subscription, payment, licence and seat event): the plan with its price
 * and next charge, the payment method, what the user holds (the desktop API's own entitlement), devices of
 * seats and the download; each card links to its page. Then the profile's sections, so the spec's landing
 * (the profile) is all still here.
 */
export default function Home({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { result: answer, query } = useOne<Overview, DataError>({ resource: 'overview', id: 'me' });
  // The answer arrives as a store update, which React renders in one piece; the cards render from a deferred
  // copy, in a transition, in slices.
  const overview = useDeferredValue(answer);
  // The sections below the overview commit after its first paint, each in a transition, and only as they come
  // on screen or once the user scrolls, taps or types: on a phone the overview fills the first screen, and the
  // sections were a third of the load's main-thread work (bench/README.md, 2026-11-27). The same element on
  // every render, so the overview's updates do not render them again.
  const sections = useMemo(
    () => (
      <Staggered asNeeded>
        <ProfileSections download={false} />
      </Staggered>
    ),
    [],
  );
  return (
    <PageCard title={t(titleKey)} testId="home">
      {overview ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, gap: 2, mb: 1 }}>
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
      {/* Below the overview or its error: beside the spinner alone they would all be on screen at once. */}
      {overview || query.isError ? sections : null}
    </PageCard>
  );
}
