import { matchPath } from 'react-router';
import { authProvider, session } from '../../providers/index.js';
import { loadAccountTexts } from '../i18n.js';
import { loadPage } from '../pages/index.js';
import { loadAccessGate, loadAccountLayout } from './frames.js';
import type { Locale } from './locale.js';
import { splitLocale } from './locale.js';
import { ROUTES } from './routes.js';

/**
 * A signed-in screen opened from its address (a reload, a bookmark, a link in a mail) needs the frame,
 * the access gate, the account texts, its page module and the current user. Asked for as each one
 * renders, they came one after another, a round trip each (seven on `/account/profile`); started here,
 * before the first render, they travel together and the components find them ready.
 * Nothing is started without a session: the guard sends such a visitor to sign-in.
 */
export function warmUp(pathname: string, language: Locale): void {
  if (session.getToken() === null && session.getOfflineToken() === null) return;
  const { path } = splitLocale(pathname);
  const entry = ROUTES.find((route) => route.layout === 'account' && matchPath(`/${route.path}`, path) !== null);
  if (entry === undefined) return;
  void loadAccountLayout();
  void loadAccessGate();
  void loadAccountTexts(language);
  void loadPage(entry.page);
  void authProvider.getIdentity();
}
