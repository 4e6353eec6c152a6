/**
 * Phone numbers in international form (spec section 5: "Phone format like {phone}"): a leading +, the
 * country code and 6 to 14 more digits, spaces, dashes or one pair of parentheses allowed between them.
 */
export const PHONE_PATTERN = /^\+[1-9]\d{0,2}[\s-]?(?:\(\d{1,4}\)[\s-]?)?(?:\d[\s-]?){5,13}\d$/;

export function isValidPhone(value: string): boolean {
  return PHONE_PATTERN.test(value.trim());
}
