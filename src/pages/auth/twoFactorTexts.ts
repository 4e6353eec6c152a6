import de from '../../../locales/de/two-factor-sign-in.json';
import en from '../../../locales/en/two-factor-sign-in.json';
import { i18n } from '../../i18n.js';

/**
 * The second step's texts (`twoFactorSignIn:` keys), a namespace of their own that comes with the step's
 * code in both languages: the sign-in pages, held to their JavaScript budget, download them only when an
 * account asks for a second factor (as src/pages/admin/user/texts.ts does for the admin user page).
 */
export const TWO_FACTOR_SIGN_IN_NAMESPACE = 'twoFactorSignIn';

for (const [language, texts] of Object.entries({ en, de })) {
  if (!i18n.hasResourceBundle(language, TWO_FACTOR_SIGN_IN_NAMESPACE)) i18n.addResourceBundle(language, TWO_FACTOR_SIGN_IN_NAMESPACE, texts, true, true);
}
