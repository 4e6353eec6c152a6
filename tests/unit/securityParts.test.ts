import { describe, expect, it } from 'vitest';
import { deviceOf } from '../../src/pages/account/security/deviceName.js';
import { proofFor } from '../../src/pages/account/security/proof.js';
import { recoveryCodesFile } from '../../src/pages/account/security/RecoveryCodes.js';
import { groupedSecret } from '../../src/pages/account/security/TotpSetup.js';

/** The security page's small rules (issue 44). */
describe('the security page', () => {
  it('shows the setup key in groups of four, as authenticator apps do', () => {
    expect(groupedSecret('JBSWY3DPEHPK3PXPJBSWY3DP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    expect(groupedSecret('ABCDEF')).toBe('ABCD EF');
  });

  it('writes the recovery codes file with who and when first, then one code a line', () => {
    expect(recoveryCodesFile(['aaaaa-11111', 'bbbbb-22222'], { title: 'Shapelab recovery codes for ada@example.com', note: 'Made today.' })).toBe(
      'Shapelab recovery codes for ada@example.com\nMade today.\n\naaaaa-11111\nbbbbb-22222\n',
    );
  });

  it('asks for the password, or for an account without one a code from its app, or else a recent sign-in', () => {
    expect(proofFor({ hasPassword: true, totp: true })).toBe('password');
    expect(proofFor({ hasPassword: false, totp: true })).toBe('code');
    expect(proofFor({ hasPassword: false, totp: false })).toBe('recent');
  });

  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge', 'Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari', 'iOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'macOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome', 'Android'],
  ])('names a new passkey after the browser and system (%#)', (agent, browser, system) => {
    expect(deviceOf(agent)).toEqual({ browser, system });
  });

  it('says nothing it does not know', () => {
    expect(deviceOf('curl/8.0')).toEqual({ browser: null, system: null });
  });
});
