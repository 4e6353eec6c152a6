import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { RETENTION_DAYS } from '../../../contract/analytics-values.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { PageCard } from '../../components/PageCard.js';
import type { PageProps } from '../index.js';
import { CohortHeatMap } from './analytics/CohortHeatMap.js';
import { cohortCsvRows } from './analytics/cohorts.js';
import { FigureCard } from './analytics/FigureCard.js';
import { FilterBar } from './analytics/FilterBar.js';
import type { FilterOptions } from './analytics/filters.js';
import { useCohorts, useExtent } from './analytics/useAnalyticsData.js';
import { useAnalyticsFilters, type Extent } from './analytics/useAnalyticsFilters.js';
import './adminTexts.js';

const FILTER_OPTIONS: FilterOptions<'week' | 'month'> = { granularities: ['week', 'month'], defaultGranularity: 'week' };

/**
 * `/admin/cohort` (spec section 2, issue "Usage analytics and cohorts"): the users who signed up in each
 * week or month of the range, and how many of them were still active 7, 14, 21, 28 and 366 days later,
 * under the same filters as the dashboard, from the first sign-up on (issue 21 item 3).
 */
export default function CohortPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { extent, errorKey } = useExtent('all');
  return (
    <PageCard title={t(titleKey)} testId="cohort-page" wide>
      <ErrorAlert messageKey={errorKey} />
      {extent ? <Cohorts extent={extent} /> : <Skeleton variant="rectangular" height={120} aria-hidden />}
    </PageCard>
  );
}

function Cohorts({ extent }: { extent: Extent }) {
  const { t } = useTranslation();
  const { register, change, problems, filters, pending, preset, pickPreset } = useAnalyticsFilters(FILTER_OPTIONS, extent);
  const cohorts = useCohorts(filters);
  const title = t('pages.cohort.tableTitle');
  // A week or month nobody signed up in has no retention to show: it stays out of the table and the file.
  const response = cohorts.data && { ...cohorts.data, cohorts: cohorts.data.cohorts.filter((cohort) => cohort.users > 0) };
  const csv =
    response && filters
      ? () => ({
          name: `cohorts-${response.granularity}-${filters.from}-${filters.to}.csv`,
          header: [
            t('pages.analytics.csvPeriod'),
            t('pages.cohort.users'),
            ...RETENTION_DAYS.flatMap((day) => [t('pages.cohort.csvUsers', { day }), t('pages.cohort.csvPercent', { day })]),
          ],
          rows: cohortCsvRows(response.cohorts),
        })
      : null;

  return (
    <>
      <FilterBar
        register={register}
        problems={problems}
        granularities={FILTER_OPTIONS.granularities}
        onChange={change}
        preset={preset}
        onPreset={pickPreset}
        pending={pending}
      />
      <ErrorAlert messageKey={cohorts.errorKey} />
      {filters && (response || cohorts.loading) && (
        <FigureCard title={title} testId="cohorts" csv={csv} loading={!response} stale={cohorts.stale}>
          {response && <CohortHeatMap response={response} title={title} />}
        </FigureCard>
      )}
    </>
  );
}
