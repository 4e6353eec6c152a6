/**
 * The browser and system a user agent names, for a new passkey's default name ("Firefox on Linux"). Coarse
 * on purpose: a name the person reads and may change, not a fingerprint. Order matters: Edge and Opera say
 * Chrome too, Chrome says Safari, Android says Linux, iOS says Mac OS X.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function deviceOf(userAgent: string): { browser: string | null; system: string | null } {
  const find = (table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser: find(BROWSERS), system: find(SYSTEMS) };
}
