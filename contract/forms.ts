import { z } from 'zod/mini';
import { isStrongEnough } from './password.js';
import { isValidPhone } from './phone.js';

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
