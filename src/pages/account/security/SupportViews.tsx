import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { StaffView } from '../../../../contract/account.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';

/**
 * Issue 47: when support viewed the account as its owner sees it ("viewed by support on …"), newest first. A
 * view lasts 15 minutes at most and can change nothing; one under way is also among the sessions above,
 * where the owner can sign it out.
 */
export function SupportViews() {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { result, query } = useList<StaffView & { id: string }, DataError>({ resource: 'support-views', pagination: { mode: 'off' }, errorNotification: false });
  if (query.isLoading) return <FullPageSpinner minHeight={60} />;
  if (query.isError) return <ErrorAlert messageKey={messageKeyOf(query.error)} />;
  const views = result.data;
  return (
    <>
      <Typography sx={{ mb: 1 }}>{t('pages.security.views.intro')}</Typography>
      {views.length === 0 ? (
        <Typography color="text.secondary">{t('pages.security.views.none')}</Typography>
      ) : (
        <List dense aria-label={t('pages.security.views.title')} data-testid="support-views">
          {views.map((view) => (
            <ListItem key={view.viewedAt} disableGutters>
              <ListItemText
                primary={
                  view.until
                    ? t('pages.security.views.viewedUntil', { date: formatDateTime(view.viewedAt, language), until: formatDateTime(view.until, language) })
                    : t('pages.security.views.viewedOn', { date: formatDateTime(view.viewedAt, language) })
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
