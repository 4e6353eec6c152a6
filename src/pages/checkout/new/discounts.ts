/** A discount the buyer chose: by id (`?discount=`), found by its code, or the price's own ('default'). */
export type DiscountChoice = { id: string; code: string | null } | 'default' | null;

/** `GET /perpetual/discount-object-by-code/`: a code's discount; a humble-bundle checkout accepts only its own codes. */
export function discountByCodeUrl(code: string, humbleBundle = false): string {
  return `/perpetual/discount-object-by-code/?discountCode=${encodeURIComponent(code)}${humbleBundle ? '&humbleBundle=true' : ''}`;
}
