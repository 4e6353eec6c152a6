import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useCustom } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Release } from '../../contract/licensing.js';
import type { DataError } from '../../providers/dataProvider.js';
import { detectPlatform } from '../licensing/platform.js';
import { useRecordDownload } from '../licensing/useRecordDownload.js';

/** The website's download page, offered while the API lists no build (a fresh installation). */
export const DOWNLOAD_PAGE_URL = 'https://shapelab.app/download';

/**
 * The offer to download the desktop application: the newest build for this computer's system first,
 * the other systems' builds beside it; every build when the system is not recognised (a phone, say).
 */
export function DownloadShapelab() {
  const { t } = useTranslation();
  const recordDownload = useRecordDownload();
  // Without the list (a failure), the website's download page is offered: nothing to notify.
  const { result, query } = useCustom<Release[], DataError>({ url: '/releases/latest', method: 'get', errorNotification: false });
  if (query.isPending) return null;
  const releases: Release[] = query.isSuccess ? (result.data as Release[]) : [];
  const label = (release: Release, key = 'download.build') => t(key, { version: release.version, platform: t(`download.platforms.${release.platform}`) });

  if (releases.length === 0) {
    return (
      <Button variant="contained" href={DOWNLOAD_PAGE_URL}>
        {t('download.generic')}
      </Button>
    );
  }

  const platform = detectPlatform(navigator);
  const mine = releases.find((release) => release.platform === platform);
  if (!mine) {
    return (
      <Box data-testid="download-shapelab">
        <Typography sx={{ mb: 1 }}>{t('download.choose')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('download.version', { version: [...new Set(releases.map((release) => release.version))].join(', ') })}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {releases.map((release) => (
            <Button key={release.id} variant="contained" href={release.url} onClick={() => recordDownload(release)}>
              {label(release)}
            </Button>
          ))}
        </Box>
      </Box>
    );
  }

  const others = releases.filter((release) => release !== mine);
  // The version stands beside the button, not in its label: "Download Shapelab 2025.1.0 for Windows" did
  // not fit a phone's card on one line in German (issue 48 item 11).
  return (
    <Box data-testid="download-shapelab">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1 }}>
        <Button variant="contained" href={mine.url} onClick={() => recordDownload(mine)}>
          {label(mine)}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {t('download.version', { version: mine.version })}
        </Typography>
      </Box>
      {others.length > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('download.others')}{' '}
          {others.map((release, index) => (
            <span key={release.id}>
              {index > 0 && ' · '}
              <Link href={release.url} onClick={() => recordDownload(release)}>
                {label(release, 'download.other')}
              </Link>
            </span>
          ))}
        </Typography>
      )}
    </Box>
  );
}
