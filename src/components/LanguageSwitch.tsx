import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '../routing/locale.js';
import { useLocale } from './LocaleScope.js';

/** en | de: links to the same page under the other prefix, so the choice is kept in the address. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, switchTo } = useLocale();
  return (
    <Box component="nav" aria-label={t('header.language')} sx={{ display: 'flex', gap: 1.5 }}>
      {LOCALES.map((locale) => (
        <Link
          key={locale}
          component={RouterLink}
          to={switchTo(locale)}
          lang={locale}
          aria-current={language === locale ? 'true' : undefined}
          aria-label={t(`languages.${locale}`)}
          underline="hover"
          sx={{ fontWeight: language === locale ? 700 : 400, p: 1 }}
        >
          {locale.toUpperCase()}
        </Link>
      ))}
    </Box>
  );
}
