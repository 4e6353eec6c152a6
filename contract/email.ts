/**
 * One email rule for both sides. Dotted domains as usual, plus `localhost`, because the
 * embedded default admin is `admin@localhost`.
 */
const EMAIL_PATTERN = /^[^\s@]+@(?:(?:[^\s@.]+\.)+[^\s@.]{2,}|localhost)$/i;

export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
