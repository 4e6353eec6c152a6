import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '../routing/locale.js';
import { useLocale } from './LocaleScope.js';

/** en | de: links to the same page under the other prefix, so the choice is kept in the address. */
export function LanguageSwitch({ color = 'primary' }: { color?: 'primary' | 'inherit' }) {
  const { t } = useTranslation();
  const { language, switchTo } = useLocale();
  return (
    <ButtonGroup size="small" variant="text" color={color} component="nav" aria-label={t('header.language')}>
      {LOCALES.map((locale) => (
        <Button
          key={locale}
          component={RouterLink}
          to={switchTo(locale)}
          lang={locale}
          aria-current={language === locale ? 'true' : undefined}
          aria-label={t(`languages.${locale}`)}
          sx={{ fontWeight: language === locale ? 700 : 400 }}
        >
          {locale.toUpperCase()}
        </Button>
      ))}
    </ButtonGroup>
  );
}
