import { USER_PLANS, type UserFilters } from '../../../contract/users.js';

/**
 * The layout of `users.segment` (migration 0017): one bit per yes/no property, two bits for the plan.
 * Each filter is a condition on its bits, so a combination of filters is the set of the 256 segments
 * that meet all of them, and the database answers `segment in (...)` from an index.
 */
const BIT = { verified: 1, admin: 2, newsletter: 4, password: 8, google: 16, facebook: 32 } as const;
const PLAN_SHIFT = 6;
const SEGMENTS = Array.from({ length: 256 }, (_, segment) => segment);

/** The segments the filters select, or null when no filter is given (every user). */
export function segmentsOf(filters: UserFilters): number[] | null {
  const tests: ((segment: number) => boolean)[] = [];
  const flag = (value: 'true' | 'false' | undefined, bit: number) => {
    if (value !== undefined) tests.push((segment) => ((segment & bit) !== 0) === (value === 'true'));
  };
  flag(filters.verified, BIT.verified);
  flag(filters.admin, BIT.admin);
  flag(filters.newsletter, BIT.newsletter);
  if (filters.signIn) flag('true', BIT[filters.signIn]);
  if (filters.plan) {
    const code = USER_PLANS.indexOf(filters.plan);
    tests.push((segment) => segment >> PLAN_SHIFT === code);
  }
  return tests.length === 0 ? null : SEGMENTS.filter((segment) => tests.every((test) => test(segment)));
}
