import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AdminUserDetail } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDate, formatDateTime } from '../../../format/index.js';
import type { UserAction } from './actions.js';
import { Empty, Item, Items, Section } from './Section.js';
import type { StaffPowers } from '../users/useStaffPowers.js';

/** The perpetual licences the user holds or held (a returned one names its end). */
export function LicencesSection({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { licences } = detail;
  return (
    <Section title={t('adminUser:licences.title')} testId="user-licences">
      {licences.length === 0 ? (
        <Empty>{t('adminUser:licences.none')}</Empty>
      ) : (
        <Items label={t('adminUser:licences.title')}>
          {licences.map((licence) => (
            <Item key={licence.id}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {t('adminUser:licences.name', { release: licence.release ?? licence.edition })} ·{' '}
                {t(`adminUser:licences.sources.${licence.source}`, { defaultValue: licence.source })}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                {t('adminUser:licences.granted', { date: formatDate(licence.grantedAt, language) })}
                {licence.updatesUntil && ` · ${t('adminUser:licences.updatesUntil', { date: formatDate(licence.updatesUntil, language) })}`}
                {licence.revokedAt && ` · ${t('adminUser:licences.revoked', { date: formatDate(licence.revokedAt, language) })}`}
              </Typography>
            </Item>
          ))}
        </Items>
      )}
    </Section>
  );
}

/** The computers using the user's seats, and releasing one (its seat frees, its token dies). */
export function DevicesSection({ detail, onAction, allowed }: { detail: AdminUserDetail; onAction: (action: UserAction) => void; allowed: StaffPowers }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { seats, limit } = detail.devices;
  return (
    <Section title={t('adminUser:devices.title')} testId="user-devices">
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('pages.deviceManager.usage', { used: seats.length, limit })}
      </Typography>
      {seats.length === 0 ? (
        <Empty>{t('adminUser:devices.none')}</Empty>
      ) : (
        <Items label={t('adminUser:devices.title')}>
          {seats.map((seat) => (
            <Item key={seat.id} testId={`device-${seat.computerId}`}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                    {seat.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
                    {t('adminUser:devices.details', {
                      computerId: seat.computerId,
                      activated: formatDateTime(seat.activatedAt, language),
                      lastLogin: seat.lastLoginAt ? formatDateTime(seat.lastLoginAt, language) : t('adminUser:never'),
                    })}
                  </Typography>
                </Box>
                {allowed.releaseDevices && (
                  <Button
                    size="small"
                    color="error"
                    variant="outlined"
                    aria-label={t('pages.deviceManager.releaseLabel', { name: seat.name })}
                    onClick={() => onAction({ kind: 'release', deviceId: seat.id, name: seat.name, computerId: seat.computerId })}
                  >
                    {t('pages.deviceManager.release')}
                  </Button>
                )}
              </Box>
            </Item>
          ))}
        </Items>
      )}
    </Section>
  );
}

/** Coupons redeemed (with the access they gave) and Shapelab Lite keys claimed. */
export function CouponsSection({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { coupons, accessPasses, liteKeys } = detail;
  return (
    <Section title={t('adminUser:coupons.title')} testId="user-coupons">
      {coupons.length === 0 && accessPasses.length === 0 && liteKeys.length === 0 ? (
        <Empty>{t('adminUser:coupons.none')}</Empty>
      ) : (
        <Items label={t('adminUser:coupons.title')}>
          {coupons.map((coupon) => (
            <Item key={`coupon-${coupon.code}`}>
              <Typography variant="body2">{t('adminUser:coupons.redeemed', { code: coupon.code, date: formatDate(coupon.redeemedAt, language) })}</Typography>
            </Item>
          ))}
          {accessPasses.map((pass) => (
            <Item key={`pass-${pass.code}-${pass.startsAt}`}>
              <Typography variant="body2">
                {t('adminUser:coupons.access', { code: pass.code, from: formatDate(pass.startsAt, language), until: formatDate(pass.endsAt, language) })}
              </Typography>
            </Item>
          ))}
          {liteKeys.map((key) => (
            <Item key={`lite-${key.key}`}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {t('adminUser:coupons.liteKey', { key: key.key, channel: key.channel, date: key.claimedAt ? formatDate(key.claimedAt, language) : '—' })}
              </Typography>
            </Item>
          ))}
        </Items>
      )}
    </Section>
  );
}
