import type { Platform } from '../../contract/licensing.js';

/** What the browser says about its system: User-Agent Client Hints where offered (Chromium), else the UA string. */
export interface BrowserSystem {
  userAgent: string;
  userAgentData?: { platform?: string; mobile?: boolean };
}

/**
 * The desktop platform this browser runs on, to offer its build first; null on phones, tablets and
 * anything unrecognised (the page then lists every build). Android and iOS are checked first because
 * their user agents also name Linux and Mac OS X.
 */
export function detectPlatform(system: BrowserSystem): Platform | null {
  const hinted = system.userAgentData?.platform;
  if (hinted && !system.userAgentData?.mobile) {
    if (/^windows$/i.test(hinted)) return 'windows';
    if (/^macos$/i.test(hinted)) return 'macos';
    if (/^linux$/i.test(hinted)) return 'linux';
  }
  const agent = system.userAgent;
  if (/android|iphone|ipad|ipod|mobile/i.test(agent)) return null;
  if (/windows/i.test(agent)) return 'windows';
  if (/macintosh|mac os x/i.test(agent)) return 'macos';
  if (/linux|x11/i.test(agent)) return /cros/i.test(agent) ? null : 'linux';
  return null;
}
