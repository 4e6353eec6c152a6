import { describe, expect, it } from 'vitest';
import { detectPlatform } from '../../src/licensing/platform.js';

const AGENTS = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

describe('the download offer picks the build for this computer', () => {
  it('reads the desktop system from the user agent', () => {
    expect(detectPlatform({ userAgent: AGENTS.windows })).toBe('windows');
    expect(detectPlatform({ userAgent: AGENTS.mac })).toBe('macos');
    expect(detectPlatform({ userAgent: AGENTS.linux })).toBe('linux');
  });

  it('prefers the client hint when the browser gives one', () => {
    expect(detectPlatform({ userAgent: AGENTS.linux, userAgentData: { platform: 'Windows', mobile: false } })).toBe('windows');
    expect(detectPlatform({ userAgent: AGENTS.windows, userAgentData: { platform: 'macOS', mobile: false } })).toBe('macos');
  });

  it('offers no single build on phones, tablets, Chromebooks or unknown systems (every build is listed)', () => {
    expect(detectPlatform({ userAgent: AGENTS.android })).toBeNull();
    expect(detectPlatform({ userAgent: AGENTS.android, userAgentData: { platform: 'Android', mobile: true } })).toBeNull();
    expect(detectPlatform({ userAgent: AGENTS.iphone })).toBeNull();
    expect(detectPlatform({ userAgent: AGENTS.chromebook, userAgentData: { platform: 'Chrome OS', mobile: false } })).toBeNull();
    expect(detectPlatform({ userAgent: 'curl/8.5.0' })).toBeNull();
  });
});
