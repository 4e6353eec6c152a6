import { ApiError, type CountryCode, type Paddle } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import type { BillingInfo } from '../../../contract/billing.js';
import { needsPostalCode, normalizeVat, regionProblems, type RegionProblem, type RegionValues } from '../../../contract/billing-validation.js';
import { isKnownRegion } from '../../../contract/countries.js';
import { normalizeEmail } from '../../../contract/email.js';
import type { MessageKey } from '../../../contract/errors.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { z } from 'zod';
import type { JobHandler } from '../jobs/index.js';
import type { UsersRepo, UserWithRoles } from '../users/index.js';
import { customerIdOf, insertCustomer, ownerOf } from './customers-repo.js';

export interface CustomerDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
}

/** Changing billing info also asks the users module whose sign-in email an address is. */
export type BillingInfoDeps = CustomerDeps & { users: Pick<UsersRepo, 'findByEmail'> };

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}


/**
 * The user's customer at Paddle, created on first use (`GET /subscription/paddle/customer`). One per
 * user: a customer Paddle already has for the email is adopted, and two first uses at once end with the
 * same customer (the unique key decides). A customer that is already another user's is never adopted:
 * that user may have made this email their billing email before this one signed up (BILLING_EMAIL_TAKEN).
 */
export async function customerIdFor(deps: CustomerDeps, user: UserWithRoles): Promise<string> {
  const existing = await customerIdOf(deps.db, user.id);
  if (existing !== undefined) return existing;
  const customerId = await callPaddle(deps.paddle, async (paddle) => {
    try {
      const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || null;
      return (await paddle.customers.create({ email: user.email, name, locale: user.language })).id;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'customer_already_exists') throw error;
      const [found] = await all(paddle.customers.list({ email: [user.email] }));
      if (!found) throw error;
      const owner = await ownerOf(deps.db, found.id);
      if (owner !== null && owner !== user.id) throw new AppError('BILLING_EMAIL_TAKEN', 409);
      return found.id;
    }
  });
  return insertCustomer(deps.db, { userId: user.id, customerId, at: deps.clock.now().toISOString() });
}

async function details(paddle: Paddle, customerId: string) {
  const [customer, addresses, businesses] = await Promise.all([
    paddle.customers.get(customerId),
    all(paddle.addresses.list(customerId, { status: ['active'] })),
    all(paddle.businesses.list(customerId, { status: ['active'] })),
  ]);
  return { customer, address: addresses[0] ?? null, business: businesses[0] ?? null };
}

/** Billing info as kept at Paddle: the customer's name and email, first active address and business. */
async function storedBillingInfo(deps: CustomerDeps, user: UserWithRoles): Promise<BillingInfo> {
  const customerId = await customerIdFor(deps, user);
  return callPaddle(deps.paddle, async (paddle) => {
    const { customer, address, business } = await details(paddle, customerId);
    return {
      name: customer.name ?? null,
      email: customer.email,
      company: business?.name ?? null,
      vatNumber: business?.taxIdentifier ?? null,
      country: address?.countryCode ?? null,
      state: address?.region ?? null,
      addressLine1: address?.firstLine ?? null,
      addressLine2: address?.secondLine ?? null,
      city: address?.city ?? null,
      postalCode: address?.postalCode ?? null,
    };
  });
}

/**
 * Billing info (spec section 2) as the screens show it. Without a saved address it starts from the
 * profile's country (issue 20), the one previews already price for (catalogue.ts, Buyer), so a buyer only
 * confirms it; nothing is saved at Paddle until they do.
 */
export async function billingInfo(deps: CustomerDeps, user: UserWithRoles): Promise<BillingInfo> {
  const stored = await storedBillingInfo(deps, user);
  if (stored.country) return stored;
  const profileCountry = user.country?.trim().toUpperCase() ?? null;
  return { ...stored, country: profileCountry && isKnownRegion(profileCountry) ? profileCountry : null };
}

async function isAnotherUsersEmail(deps: BillingInfoDeps, user: UserWithRoles, email: string): Promise<boolean> {
  const other = await deps.users.findByEmail(normalizeEmail(email));
  return other !== undefined && other.id !== user.id;
}

/**
 * The messageKey a refused update answers with: the postal code and the VAT number are named by their
 * own; anything else (a region that does not exist, a VAT number too short or without a company) is
 * 'Invalid region or VAT data.' (spec section 8). The first problem by field decides, the country first
 * since the other checks depend on it.
 */
const PROBLEM_ORDER: (keyof RegionValues)[] = ['country', 'postalCode', 'vatNumber', 'company', 'state', 'city', 'addressLine1'];
const PROBLEM_KEYS: Partial<Record<RegionProblem, MessageKey>> = { postalCodeInvalid: 'POSTAL_CODE_INVALID', vatInvalid: 'VAT_NUMBER_INVALID' };

/**
 * The one required field the server insists on: the postal code of a country where Paddle needs it for
 * tax, when an update sets the country or the postal code. Other required fields are the screens' (a
 * business's street and town); the API keeps accepting partial updates of a name or an email.
 */
function missingPostalCode(next: BillingInfo, changes: Partial<BillingInfo>): boolean {
  const touchesAddress = 'country' in changes || 'postalCode' in changes;
  return touchesAddress && needsPostalCode(next.country) && !next.postalCode?.trim();
}

/**
 * Updates billing info (spec section 2): the name and billing email on the Paddle customer, the address
 * and the business. Everything is checked before Paddle is called (spec section 5: the region must exist,
 * the postal code be one of the country's, a VAT number have a company and the country's format with
 * correct check digits), and the customer is updated first, in one call, so an email that another
 * Paddle customer has (BILLING_EMAIL_TAKEN) leaves everything as it was. The sign-in email is not this one.
 */
export async function updateBillingInfo(deps: BillingInfoDeps, user: UserWithRoles, changes: Partial<BillingInfo>): Promise<BillingInfo> {
  const current = await storedBillingInfo(deps, user);
  const next = { ...current, ...changes };
  const country = next.country?.toUpperCase() ?? null;
  const vat = normalizeVat(next.vatNumber);
  // The screens ask for country and postal code; the API keeps accepting partial updates of what is set.
  const problems = regionProblems(next, { business: false });
  const problem = PROBLEM_ORDER.map((field) => problems[field]).find((found) => found !== undefined && found !== 'required');
  if (problem) throw new AppError(PROBLEM_KEYS[problem] ?? 'INVALID_REGION_OR_VAT', 400);
  if (missingPostalCode(next, changes)) throw new AppError('POSTAL_CODE_REQUIRED', 400);

  const email = changes.email !== undefined && changes.email !== current.email ? changes.email : null;
  // Another user's sign-in email would be adopted as theirs when they first need a customer (customerIdFor).
  if (email && (await isAnotherUsersEmail(deps, user, email))) throw new AppError('BILLING_EMAIL_TAKEN', 409);

  const customerId = await customerIdFor(deps, user);
  const customerChanges = { ...('name' in changes ? { name: next.name } : {}), ...(email ? { email } : {}) };
  await callPaddle(deps.paddle, async (paddle) => {
    const { address, business } = await details(paddle, customerId);
    if (Object.keys(customerChanges).length > 0) {
      try {
        await paddle.customers.update(customerId, customerChanges);
      } catch (error) {
        // Paddle's answer when another of its customers has the email (409, the same code as on creation).
        if (error instanceof ApiError && error.code === 'customer_already_exists') throw new AppError('BILLING_EMAIL_TAKEN', 409, { cause: error });
        throw error;
      }
    }
    const addressFields = {
      firstLine: next.addressLine1,
      secondLine: next.addressLine2,
      city: next.city,
      postalCode: next.postalCode,
      region: next.state,
    };
    if (country) {
      if (address) await paddle.addresses.update(customerId, address.id, { ...addressFields, countryCode: country as CountryCode });
      else await paddle.addresses.create(customerId, { ...addressFields, countryCode: country as CountryCode });
    }
    if (next.company) {
      if (business) await paddle.businesses.update(customerId, business.id, { name: next.company, taxIdentifier: vat });
      else await paddle.businesses.create(customerId, { name: next.company, taxIdentifier: vat });
    } else if (business) {
      // A buyer who no longer buys as a business (company and VAT number cleared): Paddle has no delete for
      // businesses, so it is archived, and checkouts and invoices stop naming it (billingContext lists active ones).
      await paddle.businesses.update(customerId, business.id, { status: 'archived' });
    }
  });
  return billingInfo(deps, user);
}

/**
 * Where a known user is billed, for previews and checkouts: their customer, saved address and business
 * at Paddle. Null for a user who has no customer yet (nothing is created just to look).
 */
export async function billingContext(
  deps: CustomerDeps,
  user: UserWithRoles,
): Promise<{ customerId: string; addressId: string | null; businessId: string | null } | null> {
  const customerId = await customerIdOf(deps.db, user.id);
  if (customerId === undefined) return null;
  const found = await callPaddle(deps.paddle, (paddle) => details(paddle, customerId));
  return { customerId, addressId: found.address?.id ?? null, businessId: found.business?.id ?? null };
}

/**
 * The job behind a confirmed change: the Paddle customer's email follows the sign-in email, through the
 * billing info update (its checks included), unless the user has made a different billing email theirs.
 * A user without a Paddle customer has nothing to update (one is created with the new address when needed).
 */
export function billingEmailFollowsJob(deps: CustomerDeps & { users: UsersRepo }): JobHandler {
  return async (payload) => {
    const { userId, from, to } = z.object({ userId: z.string(), from: z.string(), to: z.string() }).parse(payload);
    const user = await deps.users.findById(userId);
    const customer = await customerIdOf(deps.db, userId);
    if (!user || customer === undefined || user.email !== to) return;
    const current = await billingInfo(deps, user);
    if (current.email.toLowerCase() !== from) return;
    try {
      await updateBillingInfo(deps, user, { email: to });
    } catch (error) {
      // Another Paddle customer has the address: no retry can mend that; the admin's job list shows why.
      if (error instanceof AppError && error.messageKey === 'BILLING_EMAIL_TAKEN') {
        throw Object.assign(new Error('the Paddle customer keeps its email: another Paddle customer has the new one', { cause: error }), { permanent: true });
      }
      throw error;
    }
  };
}
