import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';

export default function NotFound() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  useDocumentTitle(t('pages.notFound.title'));
  return (
    <Paper component="section" sx={{ p: 4 }} data-testid="not-found" aria-labelledby="page-title">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {t('pages.notFound.title')}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('pages.notFound.description')}</Typography>
      <Button component={RouterLink} to={localize('/')} variant="contained">
        {t('pages.notFound.backHome')}
      </Button>
    </Paper>
  );
}
