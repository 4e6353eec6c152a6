import de from '../../../../locales/de/security.json';
import en from '../../../../locales/en/security.json';
import { i18n } from '../../../i18n.js';

/**
 * The security page's texts for the second factor and the passkeys (issue 44; `security:` keys), a
 * namespace of its own that comes with the page's code in both languages: the other signed-in screens never
 * download them (as src/pages/admin/user/texts.ts does for the admin user page). The sessions' texts stay
 * in account.json, under pages.security.
 */
export const SECURITY_NAMESPACE = 'security';

for (const [language, texts] of Object.entries({ en, de })) {
  if (!i18n.hasResourceBundle(language, SECURITY_NAMESPACE)) i18n.addResourceBundle(language, SECURITY_NAMESPACE, texts, true, true);
}
