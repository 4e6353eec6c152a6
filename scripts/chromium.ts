/**
 * The system Chromium (Debian package `chromium`) and the flags it needs on these machines: headless,
 * no sandbox as root, and no background network calls (the network is closed). Browsers are never downloaded.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
