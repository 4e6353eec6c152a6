import { z } from 'zod/mini';
import { regionProblems } from './billing-validation.js';
import { isValidEmail } from './email.js';

/**
 * The billing address form as a zod schema for react-hook-form's resolver (zod's mini build, as in
 * ./forms.ts), on spec section 5's region rules: regionProblems, the same function the server applies.
 * Apart from ./forms.ts because those rules bring the VAT-number and postal-code checks (jsvat-next and
 * postcode-validator, 40 KB before gzip) that only the billing pages need.
 */

const text = () => z.string();

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
