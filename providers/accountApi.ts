import type { z } from 'zod';
import type { checkResetTokenResponseSchema } from '../contract/account.js';
import type { HttpClient } from './http.js';

type CheckResetTokenResponse = z.infer<typeof checkResetTokenResponseSchema>;

const segment = (value: string) => encodeURIComponent(value.trim());

/** The public account calls of spec section 7 (no session needed). */
export function createAccountApi(http: HttpClient) {
  return {
    requestPasswordReset: (email: string) => http<{ ok: true }>(`/users/forget-password/${segment(email)}`, { noAuth: true }),
    checkResetToken: (token: string) =>
      http<CheckResetTokenResponse>(`/users/forget-password/check-token/${segment(token)}`, { noAuth: true }),
    resetPassword: (passwordToken: string, newPassword: string) =>
      http<{ ok: true }>('/users/forget-password/validate-token', {
        method: 'PATCH',
        noAuth: true,
        body: { passwordToken, newPassword },
      }),
    verifyEmailLink: (token: string) => http<{ verified: true }>(`/users/validate/${segment(token)}`, { noAuth: true }),
    resendVerification: (email: string) =>
      http<{ sent: true }>(`/users/resendVerificationEmail/${segment(email)}?generateVerificationCode=true`, { noAuth: true }),
  };
}
