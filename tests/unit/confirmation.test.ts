import { describe, expect, it } from 'vitest';
import { parsePastedCode } from '../../src/components/form/CodeInput.js';
import { afterConfirmation, STORED_CHECKOUT_KEY } from '../../src/routing/guard.js';
import { memoryStorage } from './fakes.js';

describe('pasted one-time code (spec section 5)', () => {
  it('takes digits, ignoring spaces and dashes, and keeps the first six', () => {
    expect(parsePastedCode('123456')).toEqual({ digits: '123456' });
    expect(parsePastedCode(' 123 456 ')).toEqual({ digits: '123456' });
    expect(parsePastedCode('123-456')).toEqual({ digits: '123456' });
    expect(parsePastedCode('1234567')).toEqual({ digits: '123456' });
    expect(parsePastedCode('12')).toEqual({ digits: '12' });
  });

  it("refuses anything else: 'Invalid characters in the pasted OTP.'", () => {
    for (const text of ['12a456', 'code: 123456', '', '   ', '１２３４５６']) {
      expect(parsePastedCode(text), text).toEqual({ invalid: true });
    }
  });
});

describe('after confirming the account (spec section 2)', () => {
  it('continues to sub-payment when a checkout was stored, else to choose-plan', () => {
    expect(afterConfirmation(memoryStorage())).toBe('/account/subscription/choose-plan');
    expect(afterConfirmation(memoryStorage({ [STORED_CHECKOUT_KEY]: '{"type":"subscription"}' }))).toBe('/sub-payment');
  });
});
