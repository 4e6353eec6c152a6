import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import { Outlet, Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../LanguageSwitch.js';
import { useLocale } from '../LocaleScope.js';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.js';
import { paths } from '../../routing/paths.js';

/** The frame of the public pages: brand, language switch, centred content. Kept light for fast sign-in. */
export function PublicLayout() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', px: 3, py: 2 }}>
        <Link component={RouterLink} to={localize(paths.home)} underline="none" variant="h6" sx={{ fontWeight: 700 }}>
          {t('app.title')}
        </Link>
        <Box sx={{ flex: 1 }} />
        <LanguageSwitch />
      </Box>
      <Container component="main" id={MAIN_CONTENT_ID} tabIndex={-1} maxWidth="sm" sx={{ flex: 1, py: 4, outline: 'none' }}>
        <Outlet />
      </Container>
    </Box>
  );
}
