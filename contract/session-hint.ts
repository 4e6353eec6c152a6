/**
 * A cookie that says only "this browser holds a session" (no token, no identity; the session itself stays
 * in localStorage, spec section 4). The SPA keeps it in step with its session store; the server reads it
 * when it serves a signed-in screen's address, to name that screen's code in the page (modulepreload), which
 * a visitor without a session, sent on to sign-in, must not download.
 */
export const SESSION_HINT_COOKIE = 'shapelab_signed_in';

/** Whether a request's Cookie header carries the hint. */
export function hasSessionHint(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim() === `${SESSION_HINT_COOKIE}=1`);
}
