import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import Button from '@mui/material/Button';
import { useList } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityEntry } from '../../../../contract/activity.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import { Empty, Section } from './Section.js';
import { describeEntry } from './timeline.js';
import { activityResource } from './useUserActions.js';

const PAGE_SIZE = 20;

/**
 * Everything that happened to the account (`GET /users/{id}/activity`), newest first, a page at a time:
 * each entry a sentence with its date, and the admin who acted when one did. (useList's pages, not an
 * infinite list: the account pages share Refine's chunk and should not carry a hook only this page uses.)
 */
export function Timeline({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const [page, setPage] = useState(1);
  const { query, result } = useList<ActivityEntry, DataError>({
    resource: activityResource(userId),
    pagination: { currentPage: page, pageSize: PAGE_SIZE, mode: 'server' },
    liveMode: 'off',
    errorNotification: false,
    queryOptions: { placeholderData: keepPreviousData },
  });
  const entries = result.data;
  const total = result.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <Section title={t('adminUser:timeline.title')} testId="user-timeline">
      {query.isError && <ErrorAlert messageKey={messageKeyOf(query.error)} />}
      {query.isPending ? (
        <FullPageSpinner minHeight={120} />
      ) : entries.length === 0 ? (
        <Empty>{t('adminUser:timeline.empty')}</Empty>
      ) : (
        <Box component="ol" aria-label={t('adminUser:timeline.label')} sx={{ p: 0, m: 0, listStyle: 'none' }}>
          {entries.map((entry) => (
            <Box component="li" key={entry.id} data-testid={`timeline-${entry.kind}`} sx={{ py: 1, borderBottom: 1, borderColor: 'divider', minWidth: 0 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {describeEntry(t, entry, language)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, language)}</time>
                {entry.actorId !== null && entry.actorId !== userId && ` · ${t('adminUser:timeline.by', { actor: entry.actorEmail ?? t('pages.users.audit.unknownActor') })}`}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {total > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 1 }}>
          <Typography variant="caption" color="text.secondary">
            {t('adminUser:timeline.shown', { from: (page - 1) * PAGE_SIZE + 1, to: Math.min(page * PAGE_SIZE, total), total })}
          </Typography>
          {pages > 1 && (
            // Plain buttons rather than MUI's Pagination: it would split a shared chunk the sign-in page loads.
            <Box component="nav" aria-label={t('adminUser:timeline.pages')} sx={{ display: 'flex', gap: 1 }}>
              <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('adminUser:timeline.newer')}
              </Button>
              <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('adminUser:timeline.older')}
              </Button>
            </Box>
          )}
        </Box>
      )}
    </Section>
  );
}
