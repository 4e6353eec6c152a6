import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useDelete, useOne } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Seat, SeatsResponse } from '../../../contract/licensing.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { ResponsiveTable } from '../../components/ResponsiveTable.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { formatDateTime } from '../../format/index.js';
import { useReadOnly } from '../../data/readOnlyView.js';

/**
 * `/account/device-manager` (spec sections 2 and 9): the computers holding the user's seats, with their
 * name, id and last login, and how many of the seats are in use. Releasing a seat is confirmed first; the
 * computer must then sign in again in Shapelab to use it. The list follows seat changes made elsewhere
 * (an activation in the desktop application, another tab) through the live provider (resource `seats`).
 */
export default function DeviceManagerPage({ titleKey }: { titleKey: string }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language } = useLocale();
  const { result: seats, query } = useOne<SeatsResponse, DataError>({ resource: 'seats', id: 'me' });
  const { mutate: remove, mutation } = useDelete<Seat, DataError>();
  const [releasing, setReleasing] = useState<Seat | null>(null);
  const busy = readOnly || mutation.isPending;

  // Refine refetches the seats after the release, also after a failure: a seat released elsewhere in the meantime leaves the list.
  const release = (seat: Seat) =>
    remove(
      {
        resource: 'seats',
        id: seat.id,
        successNotification: () => ({ type: 'success', message: t('pages.deviceManager.released', { name: seat.name }) }),
      },
      { onSettled: () => setReleasing(null) },
    );

  if (query.isLoading) return <FullPageSpinner />;
  const lastLogin = (iso: string | null) => (iso ? formatDateTime(iso, language) : t('pages.deviceManager.never'));

  return (
    <PageCard title={t(titleKey)} testId="device-manager">
      {seats && (
        <Typography sx={{ mb: 2 }} data-testid="seat-usage">
          {t('pages.deviceManager.usage', { used: seats.seats.length, limit: seats.limit })}
        </Typography>
      )}
      {seats?.seats.length === 0 && (
        <Box data-testid="no-devices">
          <Typography sx={{ mb: 1 }}>{t('pages.deviceManager.empty')}</Typography>
          <Typography sx={{ mb: 2 }}>{t('pages.deviceManager.howToActivate')}</Typography>
          <DownloadShapelab />
        </Box>
      )}
      {seats && seats.seats.length > 0 && (
        // Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): the release always in view, cards on a phone.
        <ResponsiveTable
          label={t('pages.deviceManager.tableLabel')}
          rows={seats.seats}
          rowKey={(seat) => seat.id}
          columns={[
            { key: 'name', header: t('pages.deviceManager.name'), cell: (seat) => seat.name },
            { key: 'lastLogin', header: t('pages.deviceManager.lastLogin'), cell: (seat) => lastLogin(seat.lastLoginAt), nowrap: true },
            { key: 'computerId', header: t('pages.deviceManager.computerId'), cell: (seat) => seat.computerId, mono: true },
          ]}
          actionsHeader={t('pages.deviceManager.actions')}
          actions={(seat) => (
            <Button
              size="small"
              color="error"
              disabled={busy}
              onClick={() => setReleasing(seat)}
              aria-label={t('pages.deviceManager.releaseLabel', { name: seat.name })}
            >
              {t('pages.deviceManager.release')}
            </Button>
          )}
        />
      )}
      <ConfirmDialog
        open={releasing !== null}
        title={t('pages.deviceManager.confirmTitle', { name: releasing?.name ?? '' })}
        confirmLabel={t('pages.deviceManager.confirmRelease')}
        cancelLabel={t('pages.deviceManager.keep')}
        busy={busy}
        destructive
        onCancel={() => setReleasing(null)}
        onConfirm={() => releasing && release(releasing)}
      >
        {t('pages.deviceManager.confirmText', { name: releasing?.name ?? '', computerId: releasing?.computerId ?? '' })}
      </ConfirmDialog>
    </PageCard>
  );
}
