import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { z } from 'zod';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server. The relying party is the portal's public address:
 * its host is the RP ID the credentials are bound to, its origin the only one an answer may come from.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { id: url.hostname, name: 'Shapelab', origin: url.origin };
}

/** How long the browser may take (the ceremony's life on the server is the same). */
export const CEREMONY_TTL_MS = 5 * 60 * 1000;

/** The WebAuthn user handle: the account id's bytes (never the email, which can change). */
export function userHandleOf(userId: string): string {
  return isoBase64URL.fromUTF8String(userId);
}

/** What the browser sent, checked for the fields read here; SimpleWebAuthn checks the rest. */
const registrationResponseSchema = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1), attestationObject: z.string().min(1), transports: z.array(z.string().max(32)).max(10).optional() }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
});

const authenticationResponseSchema = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1), authenticatorData: z.string().min(1), signature: z.string().min(1), userHandle: z.string().optional() }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
});

/** A registration answer the server can read: its credential id and the challenge it signed; null otherwise. */
export function readRegistration(value: unknown): { response: RegistrationResponseJSON; challenge: string } | null {
  const parsed = registrationResponseSchema.safeParse(value);
  if (!parsed.success) return null;
  const challenge = challengeOf(parsed.data.response.clientDataJSON);
  return challenge ? { response: parsed.data as RegistrationResponseJSON, challenge } : null;
}

/** A sign-in answer the server can read: its credential id, user handle and challenge; null otherwise. */
export function readAssertion(value: unknown): { response: AuthenticationResponseJSON; credentialId: string; userHandle: string | null; challenge: string } | null {
  const parsed = authenticationResponseSchema.safeParse(value);
  if (!parsed.success) return null;
  const challenge = challengeOf(parsed.data.response.clientDataJSON);
  if (!challenge) return null;
  return { response: parsed.data as AuthenticationResponseJSON, credentialId: parsed.data.id, userHandle: parsed.data.response.userHandle ?? null, challenge };
}

function challengeOf(clientDataJSON: string): string | null {
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === 'string' && challenge !== '' ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Options for adding a passkey: a discoverable credential (it must name the account by itself, for a
 * sign-in without an email), user verification preferred, no attestation (the portal trusts any
 * authenticator), and the account's own credentials excluded so the same one is not added twice.
 */
export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; displayName: string },
  existing: { credentialId: string; transports: string[] | undefined }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: isoBase64URL.toBuffer(userHandleOf(user.id)),
    userDisplayName: user.displayName,
    timeout: CEREMONY_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, ...(passkey.transports ? { transports: passkey.transports } : {}) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
  });
}

export interface RegisteredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[] | null;
  deviceType: string;
  backedUp: boolean;
}

/** The new credential when the answer is valid for `challenge` at this relying party; null otherwise. */
export async function verifyRegistration(rp: RelyingParty, response: RegistrationResponseJSON, challenge: string): Promise<RegisteredCredential | null> {
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!verified.verified) return null;
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? null,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    };
  } catch {
    // A wrong origin, RP ID, challenge, format or signature: SimpleWebAuthn throws; the answer is the same.
    return null;
  }
}

/**
 * Options for signing in with a passkey: `allow` names the account's credentials (the second step of a
 * sign-in); without it the browser offers any passkey of this site (a sign-in with a passkey alone).
 */
export async function authenticationOptions(
  rp: RelyingParty,
  options: { allow?: { credentialId: string; transports: string[] | undefined }[]; userVerification: 'required' | 'preferred' },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TTL_MS,
    userVerification: options.userVerification,
    ...(options.allow
      ? { allowCredentials: options.allow.map((passkey) => ({ id: passkey.credentialId, ...(passkey.transports ? { transports: passkey.transports } : {}) })) }
      : {}),
  });
}

/**
 * The authenticator's new signature counter when the answer is valid for `challenge` and the stored
 * credential (origin, RP ID, signature, user presence, and user verification when required); null
 * otherwise. A counter that does not grow (from a non-zero one) is refused: a cloned authenticator.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  expected: { challenge: string; credentialId: string; publicKey: string; counter: number; transports: string[] | undefined; requireUserVerification: boolean },
): Promise<{ newCounter: number; backedUp: boolean } | null> {
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: expected.credentialId,
        publicKey: isoBase64URL.toBuffer(expected.publicKey),
        counter: expected.counter,
        ...(expected.transports ? { transports: expected.transports } : {}),
      },
      requireUserVerification: expected.requireUserVerification,
    });
    if (!verified.verified) return null;
    return { newCounter: verified.authenticationInfo.newCounter, backedUp: verified.authenticationInfo.credentialBackedUp };
  } catch {
    return null;
  }
}
