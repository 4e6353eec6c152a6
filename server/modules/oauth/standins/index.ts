import { randomBytes } from 'node:crypto';
import type { Config, SocialConfig } from '../../../config.js';
import { startFacebookStandin } from './facebook.js';
import { startGoogleStandin } from './google.js';

/** The SPA pages a provider may send the browser back to (spec section 2's helper routes), per locale prefix. */
export function callbackUrls(appUrl: string, paths: readonly string[]): string[] {
  return ['', '/en', '/de'].flatMap((prefix) => paths.map((p) => `${appUrl}${prefix}${p}`));
}

export const GOOGLE_CALLBACK_PATHS = ['/google/redirect', '/google/connect'] as const;
export const FACEBOOK_CALLBACK_PATHS = ['/facebook/redirect', '/facebook/connect', '/facebook/disconnect'] as const;

/**
 * Starts the Google and Facebook stand-ins on free ports of this machine and returns the social settings
 * that point at them, with client credentials made up for this run.
 */
export async function startSocialStandins(config: Pick<Config, 'appUrl' | 'host'>): Promise<{ social: SocialConfig; close: () => Promise<void> }> {
  const publicHost = new URL(config.appUrl).hostname;
  // They listen where the portal listens; the browser reaches them at the portal's host name.
  const host = config.host;
  const googleClient = {
    clientId: 'shapelab-portal-google',
    clientSecret: randomBytes(24).toString('base64url'),
    redirectUris: callbackUrls(config.appUrl, GOOGLE_CALLBACK_PATHS),
  };
  const facebookClient = {
    clientId: 'shapelab-portal-facebook',
    clientSecret: randomBytes(24).toString('base64url'),
    redirectUris: callbackUrls(config.appUrl, FACEBOOK_CALLBACK_PATHS),
  };
  const google = await startGoogleStandin({ host, publicHost, client: googleClient });
  const facebook = await startFacebookStandin({ host, publicHost, client: facebookClient });
  return {
    social: {
      standins: true,
      google: { issuer: google.issuer, clientId: googleClient.clientId, clientSecret: googleClient.clientSecret },
      facebook: {
        authorizationUrl: facebook.authorizationUrl,
        tokenUrl: facebook.tokenUrl,
        meUrl: facebook.meUrl,
        clientId: facebookClient.clientId,
        clientSecret: facebookClient.clientSecret,
      },
    },
    close: async () => {
      await Promise.all([google.close(), facebook.close()]);
    },
  };
}
