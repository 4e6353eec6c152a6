import type { TFunction } from 'i18next';
import type { FieldErrors } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../src/components/form/fieldErrorText.js';

const t = ((key: string) => `text of ${key}`) as unknown as TFunction;

describe('fieldErrorText (the text under a form field)', () => {
  const errors: FieldErrors<{ phone: string; country: string; city: string }> = {
    phone: { type: 'server', message: 'errors.PHONE_NUMBER_INVALID' },
    city: { type: 'custom', message: '' },
  };

  it("translates the field's error key", () => {
    expect(fieldErrorText(t, errors, 'phone')).toBe('text of errors.PHONE_NUMBER_INVALID');
  });

  it('gives nothing for a field without an error, or an error without a key', () => {
    expect(fieldErrorText(t, errors, 'country')).toBeUndefined();
    expect(fieldErrorText(t, errors, 'city')).toBeUndefined();
  });
});
