import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';

/**
 * The state of a screen whose issue has not landed yet: its real title and a plain statement that it is
 * not available yet. tests/unit/routes.test.ts lists the routes that still show it.
 */
export default function PlannedPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useDocumentTitle(title);
  return (
    <Paper component="section" sx={{ p: 4, maxWidth: 720 }} data-testid="planned-page" aria-labelledby="page-title">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Chip label={t('pages.planned.badge')} color="primary" sx={{ mb: 2 }} />
      <Typography>{t('pages.planned.description')}</Typography>
    </Paper>
  );
}
