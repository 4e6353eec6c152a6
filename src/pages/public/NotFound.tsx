import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { paths } from '../../routing/paths.js';

export default function NotFound() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  return (
    <PageCard title={t('pages.notFound.title')} testId="not-found">
      <Typography sx={{ mb: 3 }}>{t('pages.notFound.description')}</Typography>
      <Button component={RouterLink} to={localize(paths.home)} variant="contained">
        {t('pages.notFound.backHome')}
      </Button>
    </PageCard>
  );
}
