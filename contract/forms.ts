import { z } from 'zod/mini';
import { isValidEmail } from './email.js';
import { isStrongEnough } from './password.js';
import { isValidPhone } from './phone.js';
import { PASSKEY_NAME_MAX_LENGTH, totpCodeOf } from './two-factor-values.js';

/**
 * The web app's forms as zod schemas for react-hook-form's resolver, on the rules the server applies (the
 * same functions: isValidPhone, isStrongEnough), so a rule is written once. zod's mini build: these load
 * with the signed-in pages, which stay within their JavaScript budget (the API's schemas use the full
 * build, on the server). Messages are translation keys. The billing address form has a module of its own
 * (./billing-form.ts): its rules bring VAT and postal-code checks that the profile's forms do not need.
 */

const text = () => z.string();
const required = (message: string) => z.string().check(z.trim(), z.minLength(1, message));

/** `PATCH /users/me` from the profile: names required, a phone number the server accepts. */
export const profileFormSchema = z.object({
  firstName: required('validation.firstNameRequired').check(z.maxLength(100)),
  lastName: required('validation.lastNameRequired').check(z.maxLength(100)),
  phone: text().check(z.refine((value) => value.trim() === '' || isValidPhone(value), 'errors.PHONE_NUMBER_INVALID')),
  country: text(),
  language: z.enum(['en', 'de']),
});
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

/** Setting or changing the password: the current one when there is one, a strong new one, typed twice alike. */
export function passwordFormSchema(hasPassword: boolean) {
  return z
    .object({
      currentPassword: hasPassword ? z.string().check(z.minLength(1, 'validation.passwordRequired')) : text(),
      newPassword: text().check(z.refine(isStrongEnough, 'validation.passwordRule')),
      confirmPassword: text(),
    })
    .check(z.refine((values) => values.confirmPassword === values.newPassword, { path: ['confirmPassword'], message: 'validation.passwordsDiffer' }));
}
export type PasswordFormValues = z.infer<ReturnType<typeof passwordFormSchema>>;

/** A coupon or discount code to try (the server says what it gives, or why not). */
export const codeFormSchema = z.object({ code: required('billing.problems.required') });
export type CodeFormValues = z.infer<typeof codeFormSchema>;

/**
 * Issue 20 item 7, `POST /users/me/email`: a new sign-in address by the one email rule (./email.ts), and the
 * current password when the account has one (an account of Google or Facebook alone has none to give).
 */
export function emailChangeFormSchema(hasPassword: boolean) {
  return z.object({
    email: z.string().check(z.trim(), z.refine(isValidEmail, 'validation.invalidEmail')),
    password: hasPassword ? z.string().check(z.minLength(1, 'validation.passwordRequired')) : text(),
  });
}
export type EmailChangeFormValues = z.infer<ReturnType<typeof emailChangeFormSchema>>;

/** The six digits of a code sent by mail (`POST /users/me/email/confirm`, ./account.ts), all of them. */
export const mailCodeFormSchema = z.object({ code: z.string().check(z.regex(/^\d{6}$/, 'validation.codeIncomplete')) });
export type MailCodeFormValues = z.infer<typeof mailCodeFormSchema>;

/** Issue 44: a code from the authenticator app, as the server reads it (totpCodeOf: six digits, a space between allowed). */
export const totpCodeFormSchema = z.object({ code: z.string().check(z.refine((value) => totpCodeOf(value) !== null, 'security:twoStep.codeInvalid')) });
export type TotpCodeFormValues = z.infer<typeof totpCodeFormSchema>;

/**
 * Issue 44: the proof asked before a change to how the account signs in: its password, or (an account without
 * one) a code from its authenticator app, or nothing to type (a recent sign-in, which the server checks).
 */
export function reauthFormSchema(proof: 'password' | 'code' | 'recent') {
  return z.object({
    password: proof === 'password' ? z.string().check(z.minLength(1, 'errors.WRONG_PASSWORD')) : text(),
    code: proof === 'code' ? totpCodeFormSchema.shape.code : text(),
  });
}
export type ReauthFormValues = z.infer<ReturnType<typeof reauthFormSchema>>;

/** Issue 44: a passkey's name, as the server keeps it (not blank, at most PASSKEY_NAME_MAX_LENGTH). */
export const passkeyNameFormSchema = z.object({
  name: z.string().check(z.refine((value) => value.trim().length > 0, 'security:passkeys.nameRequired'), z.maxLength(PASSKEY_NAME_MAX_LENGTH)),
});
export type PasskeyNameFormValues = z.infer<typeof passkeyNameFormSchema>;

/**
 * Issue 17, `DELETE /users/me`: the confirmation word typed (in any case, the reader's language's word), and the
 * password when the account has one. The button waits for both; the server checks the password.
 */
export function deleteAccountFormSchema(word: string, hasPassword: boolean) {
  return z.object({
    typed: z.string().check(z.refine((value) => value.trim().toUpperCase() === word.toUpperCase())),
    password: hasPassword ? z.string().check(z.minLength(1)) : text(),
  });
}
export type DeleteAccountFormValues = z.infer<ReturnType<typeof deleteAccountFormSchema>>;
