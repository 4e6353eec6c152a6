import { z } from 'zod/mini';
import { regionProblems } from './billing-validation.js';
import { isValidEmail } from './email.js';
import { isStrongEnough } from './password.js';
import { isValidPhone } from './phone.js';

/**
 * The web app's forms as zod schemas for react-hook-form's resolver, on the rules the server applies
 * (the same functions: regionProblems, isValidPhone, isStrongEnough, isValidEmail), so a rule is written
 * once. zod's mini build: these load with the signed-in pages, which stay within their JavaScript budget
 * (the API's schemas use the full build, on the server). Messages are translation keys.
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

/** The billing address form's fields as typed (text; empty for not given). */
export const billingFormFields = ['email', 'name', 'company', 'vatNumber', 'country', 'state', 'addressLine1', 'addressLine2', 'city', 'postalCode'] as const;
export type BillingFormValues = Record<(typeof billingFormFields)[number], string>;

/**
 * The billing address form: spec section 5's region rules (regionProblems, the server's), each problem
 * on its field as `billing.problems.<problem>`; with `withEmail` the billing email is required and checked.
 */
export function billingFormSchema(options: { business: boolean; withEmail: boolean }) {
  const shape = Object.fromEntries(billingFormFields.map((field) => [field, text()])) as Record<(typeof billingFormFields)[number], ReturnType<typeof text>>;
  return z.object(shape).check(
    z.superRefine((values, context) => {
      const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
      const problems = regionProblems(
        {
          country: orNull(values.country),
          state: orNull(values.state),
          addressLine1: orNull(values.addressLine1),
          city: orNull(values.city),
          postalCode: orNull(values.postalCode),
          company: orNull(values.company),
          vatNumber: orNull(values.vatNumber),
        },
        { business: options.business },
      );
      for (const [field, problem] of Object.entries(problems)) context.addIssue({ code: 'custom', path: [field], message: `billing.problems.${problem}` });
      if (options.withEmail) {
        const email = values.email.trim();
        if (!email) context.addIssue({ code: 'custom', path: ['email'], message: 'billing.problems.required' });
        else if (!isValidEmail(email)) context.addIssue({ code: 'custom', path: ['email'], message: 'validation.invalidEmail' });
      }
    }),
  );
}
