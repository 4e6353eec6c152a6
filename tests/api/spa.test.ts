import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/**
 * The SPA's index.html names the first screen's chunks (scripts/route-preload-plugin.ts writes the list at
 * build time; server/plugins/spa.ts puts it into the page), so the browser fetches them beside the entry.
 */
describe('the single-page app is served with its first screen’s chunks', () => {
  const spaDir = mkdtempSync(path.join(os.tmpdir(), 'spa-'));
  let server: TestServer;
  beforeAll(async () => {
    writeFileSync(path.join(spaDir, 'index.html'), '<html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>');
    mkdirSync(path.join(spaDir, '.vite'));
    writeFileSync(
      path.join(spaDir, '.vite', 'route-preloads.json'),
      JSON.stringify({
        routes: [
          { path: '', files: ['assets/Home.js', 'assets/AccountLayout.js'], signedIn: true },
          { path: 'admin/users/:id', files: ['assets/UserShow.js', 'assets/AccountLayout.js'], signedIn: true },
          { path: 'login', files: ['assets/Login.js', 'assets/Button.js'], signedIn: false },
          { path: 'checkout/:type/:tab/:priceId?', files: ['assets/ExternalCheckout.js'], signedIn: false },
          { path: '*', files: ['assets/NotFound.js'], signedIn: false },
        ],
        texts: { en: 'assets/translation-en.js', de: 'assets/translation-de.js' },
        accountTexts: { en: 'assets/account-en.js', de: 'assets/account-de.js' },
      }),
    );
    server = await startTestServer('sqlite', { spaDir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(spaDir, { recursive: true, force: true });
  });

  const preloadsOf = async (url: string, cookie?: string) => {
    const response = await server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    return [...response.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
  };

  it('names the screen’s chunks and the language’s texts, for each locale prefix', async () => {
    expect(await preloadsOf('/login')).toEqual(['/assets/translation-en.js', '/assets/Login.js', '/assets/Button.js']);
    expect(await preloadsOf('/de/login?to=%2Faccount')).toEqual(['/assets/translation-de.js', '/assets/Login.js', '/assets/Button.js']);
    expect(await preloadsOf('/en/checkout/subscription/login')).toEqual(['/assets/translation-en.js', '/assets/ExternalCheckout.js']);
    expect(await preloadsOf('/checkout/subscription/login/pri_1')).toEqual(['/assets/translation-en.js', '/assets/ExternalCheckout.js']);
  });

  it('names a signed-in screen’s code and the frame’s texts only to a browser that holds a session', async () => {
    expect(await preloadsOf('/de')).toEqual(['/assets/translation-de.js']);
    expect(await preloadsOf('/admin/users/42')).toEqual(['/assets/translation-en.js']);
    expect(await preloadsOf('/admin/users/42', 'theme=dark; shapelab_signed_in=0')).toEqual(['/assets/translation-en.js']);
    expect(await preloadsOf('/de', 'shapelab_signed_in=1')).toEqual([
      '/assets/translation-de.js',
      '/assets/account-de.js',
      '/assets/Home.js',
      '/assets/AccountLayout.js',
    ]);
    expect(await preloadsOf('/admin/users/42', 'a=b; shapelab_signed_in=1')).toEqual([
      '/assets/translation-en.js',
      '/assets/account-en.js',
      '/assets/UserShow.js',
      '/assets/AccountLayout.js',
    ]);
  });

  it('an unknown address gets the not-found screen’s code', async () => {
    expect(await preloadsOf('/no/such/page')).toEqual(['/assets/translation-en.js', '/assets/NotFound.js']);
    expect(await preloadsOf('/login/extra')).toEqual(['/assets/translation-en.js', '/assets/NotFound.js']);
  });

  it('an unknown API address is still a JSON 404, and a malformed address never a server error', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().messageKey).toBe('NOT_FOUND');
    for (const url of ['/%E0%A4%A', '/%C0', '/de/%ZZlogin']) {
      expect((await server.app.inject({ method: 'GET', url })).statusCode).toBeLessThan(500);
    }
    expect(await preloadsOf('/log%69n')).toEqual(['/assets/translation-en.js', '/assets/Login.js', '/assets/Button.js']);
  });
});
