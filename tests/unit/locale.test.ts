import { describe, expect, it } from 'vitest';
import { localeRedirect, splitLocale, withLocale } from '../../src/routing/locale.js';

describe('locale prefix (spec section 2)', () => {
  it('splits an optional en/de prefix off the path', () => {
    expect(splitLocale('/de/account/profile')).toEqual({ locale: 'de', path: '/account/profile' });
    expect(splitLocale('/en')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/login')).toEqual({ locale: null, path: '/login' });
    expect(splitLocale('/deutsch')).toEqual({ locale: null, path: '/deutsch' });
  });

  it('re-adds the stored locale to a path that lacks it', () => {
    expect(localeRedirect('/login', '?to=%2F', 'de')).toBe('/de/login?to=%2F');
    expect(localeRedirect('/', '', 'en')).toBe('/en');
    expect(localeRedirect('/de/login', '', 'en')).toBeNull();
    expect(localeRedirect('/login', '', null)).toBeNull();
    expect(localeRedirect('/login', '', 'fr')).toBeNull();
  });

  it('never doubles a prefix', () => {
    expect(withLocale('/de/login', 'en')).toBe('/de/login');
    expect(withLocale('login', 'de')).toBe('/de/login');
  });
});
