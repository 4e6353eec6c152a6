import { messageKeyOf } from '../../providers/errors.js';
import { accountApi } from '../../providers/index.js';
import { paths, type SocialProvider, type SocialPurpose } from '../routing/paths.js';

export type { SocialProvider, SocialPurpose };

/** The callback page of this portal the provider sends the browser back to (spec section 2's helper routes). */
export function callbackUrl<P extends SocialProvider>(localize: (path: string) => string, provider: P, purpose: SocialPurpose<P>): string {
  return `${window.location.origin}${localize(paths.socialReturn(provider, purpose))}`;
}

/** Sends the browser to the provider's sign-in; resolves with a messageKey only when that cannot start. */
export async function goToProvider<P extends SocialProvider>(localize: (path: string) => string, provider: P, purpose: SocialPurpose<P>): Promise<string> {
  try {
    const { authorizeUrl } = await accountApi.socialAuthorizeUrl(provider, callbackUrl(localize, provider, purpose));
    window.location.assign(authorizeUrl);
    return '';
  } catch (error) {
    return messageKeyOf(error);
  }
}

/** What the provider put on the callback page's address: the code and state, or an error. */
export function readCallback(search: string): { code: string; state: string; iss?: string; error: string | null } {
  const params = new URLSearchParams(search);
  const iss = params.get('iss');
  return {
    code: params.get('code') ?? '',
    state: params.get('state') ?? '',
    ...(iss ? { iss } : {}),
    error: params.get('error'),
  };
}
