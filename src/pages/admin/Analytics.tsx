import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { GRANULARITIES, type Channel, type Granularity } from '../../../contract/analytics-values.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { PageCard } from '../../components/PageCard.js';
import { splitLocale } from '../../routing/locale.js';
import type { PageProps } from '../index.js';
import { ChartCard } from './analytics/ChartCard.js';
import { CHARTS } from './analytics/charts.js';
import { FilterBar } from './analytics/FilterBar.js';
import { channelOfPath, type FilterOptions } from './analytics/filters.js';
import { KpiGrid } from './analytics/KpiGrid.js';
import { RetentionCard } from './analytics/RetentionCard.js';
import { kpisOf } from './analytics/live.js';
import { useAnalytics, useExtent } from './analytics/useAnalyticsData.js';
import { useAnalyticsFilters, type Extent } from './analytics/useAnalyticsFilters.js';
import { useLiveCounters } from './analytics/useLiveCounters.js';
import './adminTexts.js';

const FILTER_OPTIONS: FilterOptions<Granularity> = { granularities: GRANULARITIES, defaultGranularity: 'week' };

/**
 * `/admin/analytics` and the store entries of the admin menu (`/admin/analytics/steam`...; spec section
 * 2, issue "Usage analytics and cohorts"): the KPIs and charts of a date range for every channel or
 * one store's, with the filters of spec section 3 kept in the address. The counters follow the
 * desktop reports as they arrive (./analytics/useLiveCounters.ts). Issue 21 item 3: the range opens on
 * the channel's first data, a wrong filter keeps the figures, the current period is marked incomplete,
 * and each KPI says how it changed against the previous periods.
 */
export default function AnalyticsPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const channel = channelOfPath(splitLocale(useLocation().pathname).path);
  const { extent, errorKey } = useExtent(channel);
  const title = channel === 'all' ? t(titleKey) : t('pages.analytics.storeTitle', { store: t(titleKey) });

  return (
    <PageCard title={title} testId="analytics-page" wide>
      <ErrorAlert messageKey={errorKey} />
      {/* The default range needs the first day with data: the filters start once it is known. */}
      {extent ? <Dashboard key={channel} channel={channel} extent={extent} /> : <Skeleton variant="rectangular" height={120} aria-hidden />}
    </PageCard>
  );
}

function Dashboard({ channel, extent }: { channel: Channel; extent: Extent }) {
  const { register, change, problems, filters, pending, preset, pickPreset } = useAnalyticsFilters(FILTER_OPTIONS, extent);
  const figures = useAnalytics(filters, channel);
  const live = useLiveCounters(filters, channel, figures.refetch);
  const points = figures.data?.series ?? null;
  const granularity = figures.data?.granularity ?? filters?.granularity ?? FILTER_OPTIONS.defaultGranularity;
  const fileStem = filters ? `analytics-${channel}-${filters.granularity}-${filters.from}-${filters.to}` : '';

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
      <ErrorAlert messageKey={figures.errorKey} />
      {filters && (figures.data || figures.loading) && (
        <>
          <KpiGrid kpis={figures.data ? kpisOf(figures.data.totals, live) : null} comparison={figures.data?.comparison ?? null} granularity={granularity} />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' } }}>
            {CHARTS.map((spec) => (
              <ChartCard
                key={spec.id}
                spec={spec}
                points={points}
                granularity={granularity}
                incompleteFrom={figures.data?.incompleteFrom ?? null}
                fileStem={fileStem}
                stale={figures.stale}
              />
            ))}
          </Box>
        </>
      )}
      {/* Subscriptions' renewals and cancellations are the portal's own, not a store's: on the all-channels dashboard. */}
      {filters && channel === 'all' && (
        <Box sx={{ mt: 2 }}>
          <RetentionCard from={filters.from} to={filters.to} />
        </Box>
      )}
    </>
  );
}
