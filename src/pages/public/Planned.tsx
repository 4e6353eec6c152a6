import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard.js';

/**
 * The state of a screen whose issue has not landed yet: its real title and a plain statement that it is
 * not available yet. tests/unit/routes.test.ts lists the routes that still show it.
 */
export default function PlannedPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageCard title={t(titleKey)} testId="planned-page">
      <Chip label={t('pages.planned.badge')} color="primary" sx={{ mb: 2 }} />
      <Typography>{t('pages.planned.description')}</Typography>
    </PageCard>
  );
}
