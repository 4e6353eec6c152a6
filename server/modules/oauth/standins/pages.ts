import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The page a stand-in identity provider shows instead of Google's or Facebook's sign-in: pick one of the
 * test identities or type one, mark the email as verified or not, or cancel (the provider then answers
 * `access_denied`, as the real ones do when a person declines).
 */
export interface TestIdentity {
  email: string;
  name: string;
  emailVerified: boolean;
}

export const TEST_IDENTITIES: readonly TestIdentity[] = [
  { email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true },
  { email: 'grace@example.com', name: 'Grace Hopper', emailVerified: true },
  { email: 'unverified@example.com', name: 'Una Verified', emailVerified: false },
];

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export function identityPage(options: { provider: string; action: string; hidden: Record<string, string> }): string {
  const hidden = Object.entries(options.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const picks = TEST_IDENTITIES.map(
    (identity) =>
      `<form method="post" action="${escape(options.action)}">${hidden}` +
      `<input type="hidden" name="email" value="${escape(identity.email)}">` +
      `<input type="hidden" name="name" value="${escape(identity.name)}">` +
      `<input type="hidden" name="emailVerified" value="${identity.emailVerified ? 'on' : ''}">` +
      `<button type="submit">Continue as ${escape(identity.name)} (${escape(identity.email)}${identity.emailVerified ? '' : ', unverified'})</button></form>`,
  ).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(options.provider)} sign-in (local stand-in)</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
form{margin:0 0 .75rem}button,input[type=text],input[type=email]{font:inherit;padding:.5rem .75rem}
button{cursor:pointer;width:100%;text-align:left}label{display:block;margin:.5rem 0}
input[type=text],input[type=email]{width:100%;box-sizing:border-box}.note{color:#555}</style></head>
<body><main>
<h1>${escape(options.provider)} sign-in</h1>
<p class="note">Local stand-in for development and tests. No real ${escape(options.provider)} account is used.</p>
<h2>Pick a test identity</h2>${picks}
<h2>Or type one</h2>
<form method="post" action="${escape(options.action)}">${hidden}
<label>Email <input type="email" name="email" required></label>
<label>Name <input type="text" name="name" required></label>
<label><input type="checkbox" name="emailVerified" checked> The provider has verified this email</label>
<button type="submit">Continue</button></form>
<form method="post" action="${escape(options.action)}">${hidden}<input type="hidden" name="cancel" value="1">
<button type="submit">Cancel</button></form>
</main></body></html>`;
}

/** Reads an `application/x-www-form-urlencoded` body (at most 16 KB). */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A stable subject per email, as a provider keeps one id per account. */
export function subjectOf(prefix: string, email: string): string {
  return `${prefix}${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 20)}`;
}
