import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../LocaleScope.js';
import { paths } from '../../routing/paths.js';

export function Brand({ collapsed }: { collapsed?: boolean }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  return (
    <Link component={RouterLink} to={localize(paths.home)} underline="none" variant="h6" sx={{ fontWeight: 700, px: 1 }}>
      {collapsed ? t('app.title').charAt(0) : t('app.title')}
    </Link>
  );
}
