import de from '../../../../locales/de/admin-user.json';
import en from '../../../../locales/en/admin-user.json';
import { i18n } from '../../../i18n.js';

/**
 * The admin user page's texts (`adminUser:` keys), a namespace of their own that comes with the page's
 * code in both languages: the account pages, held to a tighter weight budget, never download them, and
 * a language switch on this page needs nothing more. (Texts shared with other screens stay in
 * account.json; a namespace of its own leaves i18n.ts's test for a loaded language untouched.)
 */
export const ADMIN_USER_NAMESPACE = 'adminUser';

for (const [language, texts] of Object.entries({ en, de })) {
  if (!i18n.hasResourceBundle(language, ADMIN_USER_NAMESPACE)) i18n.addResourceBundle(language, ADMIN_USER_NAMESPACE, texts, true, true);
}
