import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, isValidEmail } from '../../contract/email.js';

describe('isValidEmail', () => {
  it.each(['admin@localhost', 'a@b.co', 'first.last+tag@mail.example.com', 'USER@EXAMPLE.DE'])('%s is valid', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['no dotted domain', 'a@b'],
    ['no @', 'no-at'],
    ['a space', 'a b@c.de'],
    ['an empty local part', '@example.com'],
    ['two @', 'a@b@c.de'],
    ['a one-letter top-level domain', 'a@b.c'],
    ['an empty string', ''],
  ])('%s is invalid', (_label, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it(`is at most ${EMAIL_MAX_LENGTH} characters long`, () => {
    const domain = '@example.com';
    const longest = `${'a'.repeat(EMAIL_MAX_LENGTH - domain.length)}${domain}`;
    expect(longest).toHaveLength(254);
    expect(isValidEmail(longest)).toBe(true);
    expect(isValidEmail(`a${longest}`)).toBe(false);
  });
});
