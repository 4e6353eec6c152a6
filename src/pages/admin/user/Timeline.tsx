import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useInfiniteList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { ActivityEntry } from '../../../../contract/activity.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorKeyOf } from '../../../data/useApiAction.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import { Empty, Section } from './Section.js';
import { describeEntry } from './timeline.js';
import { activityResource } from './useUserActions.js';

const PAGE_SIZE = 20;

/**
 * Everything that happened to the account (`GET /users/{id}/activity`), newest first, a page at a time
 * ("show older"): each entry a sentence with its date, and the admin who acted when one did.
 */
export function Timeline({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { query, result } = useInfiniteList<ActivityEntry, DataError>({
    resource: activityResource(userId),
    pagination: { pageSize: PAGE_SIZE },
    liveMode: 'off',
    errorNotification: false,
  });
  const entries = result.data?.pages.flatMap((page) => page.data) ?? [];
  const total = result.data?.pages[0]?.total ?? 0;

  return (
    <Section title={t('pages.adminUser.timeline.title')} testId="user-timeline">
      {query.isError && <ErrorAlert messageKey={errorKeyOf(query.error)} />}
      {query.isPending ? (
        <FullPageSpinner minHeight={120} />
      ) : entries.length === 0 ? (
        <Empty>{t('pages.adminUser.timeline.empty')}</Empty>
      ) : (
        <Box component="ol" aria-label={t('pages.adminUser.timeline.label')} sx={{ p: 0, m: 0, listStyle: 'none' }}>
          {entries.map((entry) => (
            <Box component="li" key={entry.id} data-testid={`timeline-${entry.kind}`} sx={{ py: 1, borderBottom: 1, borderColor: 'divider', minWidth: 0 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {describeEntry(t, entry, language)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, language)}</time>
                {entry.actorId !== null && entry.actorId !== userId && ` · ${t('pages.adminUser.timeline.by', { actor: entry.actorEmail ?? t('pages.users.audit.unknownActor') })}`}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {entries.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mt: 1 }}>
          <Typography variant="caption" color="text.secondary" role="status">
            {t('pages.adminUser.timeline.shown', { shown: entries.length, total })}
          </Typography>
          {result.hasNextPage && (
            <Button size="small" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {t('pages.adminUser.timeline.more')}
            </Button>
          )}
        </Box>
      )}
    </Section>
  );
}
