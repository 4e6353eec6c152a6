import type { z } from 'zod';
import type { PerpetualLicence, PreloadRequest, PreloadResponse } from '../contract/billing.js';
import type { Subscription } from '../contract/subscription.js';
import type { checkResetTokenResponseSchema, SessionView } from '../contract/account.js';
import type { CallbackRequest as SocialCallback, SocialProvider } from '../contract/oauth.js';
import type { RegistrationRequest, registrationResponseSchema } from '../contract/registration.js';
import type { Me } from '../contract/users.js';
import type { HttpClient } from './http.js';

type CheckResetTokenResponse = z.infer<typeof checkResetTokenResponseSchema>;
type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

const segment = (value: string) => encodeURIComponent(value.trim());

/** The account calls of spec section 7 that are not Refine data: public ones, and the password check. */
export function createAccountApi(http: HttpClient) {
  return {
    /** `POST /users`: the mail carries a code for /users/confirm; `external` when signing up from the checkout. */
    register: (body: RegistrationRequest, options: { external: boolean }) =>
      http<RegistrationResponse>(`/users?generateVerificationCode=true&externalRegistration=${String(options.external)}`, {
        method: 'POST',
        noAuth: true,
        body,
      }),
    requestPasswordReset: (email: string) => http<{ ok: true }>(`/users/forget-password/${segment(email)}`, { noAuth: true }),
    checkResetToken: (token: string) =>
      http<CheckResetTokenResponse>(`/users/forget-password/check-token/${segment(token)}`, { noAuth: true }),
    resetPassword: (passwordToken: string, newPassword: string) =>
      http<{ ok: true }>('/users/forget-password/validate-token', {
        method: 'PATCH',
        noAuth: true,
        body: { passwordToken, newPassword },
      }),
    /** `POST /{subscription|perpetual}/preload` for a visitor: what the checkout they came for sells, and at what price. */
    previewCheckout: (type: 'subscription' | 'perpetual', body: PreloadRequest) =>
      http<PreloadResponse>(`/${type}/preload`, { method: 'POST', noAuth: true, body }),
    /** Signed in: whether `oldPassword` is the current password (`POST /users/checkOldPassword`). */
    checkOldPassword: (oldPassword: string) =>
      http<{ result: boolean }>('/users/checkOldPassword', { method: 'POST', body: { oldPassword } }),
    /** The provider's sign-in address for Google or Facebook, coming back to `redirectUrl`. */
    socialAuthorizeUrl: (provider: SocialProvider, redirectUrl: string) =>
      http<{ authorizeUrl: string }>(`/auth/${provider}/login?redirectUrl=${encodeURIComponent(redirectUrl)}`, { noAuth: true }),
    /** Signed in: links the provider account that came back with `callback`. */
    connectSocial: (provider: SocialProvider, callback: SocialCallback) =>
      http<Me>(`/auth/${provider}/connect`, { method: 'POST', body: callback }),
    disconnectSocial: (provider: SocialProvider) => http<Me>(`/users/me/disconnectSocial/${provider}`, { method: 'PATCH' }),
    /** Facebook disconnect, proven by signing in to the linked Facebook account once more. */
    disconnectFacebook: (callback: SocialCallback) => http<Me>('/auth/facebook/disconnect', { method: 'POST', body: callback }),
    /** Issue 17: where the user is signed in, and signing sessions out. */
    sessions: () => http<SessionView[]>('/users/me/sessions'),
    endSession: (id: string) => http<null>(`/users/me/sessions/${segment(id)}`, { method: 'DELETE' }),
    endOtherSessions: () => http<{ ended: number }>('/users/me/sessions', { method: 'DELETE' }),
    /** Deletes the account: the current password, or nothing for an account without one (a recent sign-in). */
    deleteAccount: (password: string | null) => http<null>('/users/me', { method: 'DELETE', body: password ? { password } : {} }),
    /** Everything the portal stores about the user, as one JSON document. */
    exportData: () => http<Record<string, unknown>>('/users/me/export'),
    /**
     * Right after a Google or Facebook sign-in (spec section 2): the subscription (any, also ended; read
     * without creating a billing customer) and the perpetual licences, which decide where the user goes.
     */
    purchasesAfterSignIn: async () => {
      const [subscription, licences] = await Promise.all([http<Subscription | null>('/subscription/user'), http<PerpetualLicence[]>('/perpetual/license')]);
      return { subscription, licences };
    },
    resendVerification: (email: string) =>
      http<{ sent: true }>(`/users/resendVerificationEmail/${segment(email)}?generateVerificationCode=true`, { noAuth: true }),
  };
}
