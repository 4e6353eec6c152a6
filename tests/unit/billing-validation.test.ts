import { describe, expect, it } from 'vitest';
import { isPostalCode, regionProblems, type RegionProblem, type RegionValues } from '../../contract/billing-validation.js';
import { checksVatNumbers, isVatNumberFormat } from '../../contract/vat.js';
import deAccount from '../../locales/de/account.json';
import enAccount from '../../locales/en/account.json';

/** Spec section 5, checkout region: the rules the region and VAT dialog, billing info and the server share. */
const business: RegionValues = {
  country: 'DE',
  state: 'Berlin',
  addressLine1: 'Unter den Linden 1',
  city: 'Berlin',
  postalCode: '10117',
  company: 'Analytical Engines GmbH',
  // A real German VAT number (its check digit is right); DE123456789's is not.
  vatNumber: 'DE136695976',
};

describe('region and VAT validation', () => {
  it('accepts a complete business address with a VAT number of the country’s format and check digits', () => {
    expect(regionProblems(business, { business: true })).toEqual({});
  });

  it('requires a business to name its company, street and town, the postcode where Paddle needs one; VAT stays optional', () => {
    const empty = { country: 'DE', state: '', addressLine1: ' ', city: null, postalCode: '', company: '', vatNumber: '' };
    expect(regionProblems(empty, { business: true })).toEqual({
      postalCode: 'required',
      city: 'required',
      addressLine1: 'required',
      company: 'required',
    });
    expect(regionProblems({ ...business, vatNumber: null, state: null }, { business: true })).toEqual({});
  });

  it('asks a consumer only for the country, and the postcode in the countries where Paddle requires one (issue 20)', () => {
    const person = { country: 'US', state: null, addressLine1: null, city: null, postalCode: '94103', company: null, vatNumber: null };
    expect(regionProblems(person, { business: false })).toEqual({});
    expect(regionProblems({ ...person, country: null, postalCode: null }, { business: false })).toEqual({ country: 'required' });
    expect(regionProblems({ ...person, country: 'DE', postalCode: null }, { business: false })).toEqual({ postalCode: 'required' });
    // Hungary and Austria: Paddle needs only the country.
    expect(regionProblems({ ...person, country: 'HU', postalCode: null }, { business: false })).toEqual({});
    expect(regionProblems({ ...person, country: 'AT', postalCode: null }, { business: false })).toEqual({});
  });

  it('names an unknown region, an invalid postcode, a short or invalid VAT number, and a VAT number without company', () => {
    expect(regionProblems({ ...business, country: 'XX' }, { business: true }).country).toBe('regionUnknown');
    expect(regionProblems({ ...business, postalCode: 'abc' }, { business: true }).postalCode).toBe('postalCodeInvalid');
    expect(regionProblems({ ...business, postalCode: '1' }, { business: true }).postalCode).toBe('postalCodeInvalid');
    expect(regionProblems({ ...business, postalCode: '10117!' }, { business: true }).postalCode).toBe('postalCodeInvalid');
    expect(regionProblems({ ...business, country: 'US', postalCode: '94103', vatNumber: 'X' }, { business: true }).vatNumber).toBe('vatTooShort');
    expect(regionProblems({ ...business, vatNumber: 'DE123456789' }, { business: true }).vatNumber).toBe('vatInvalid');
    // A valid French number is still not a German one.
    expect(regionProblems({ ...business, vatNumber: 'FR40303265045' }, { business: true }).vatNumber).toBe('vatInvalid');
    expect(regionProblems({ ...business, company: null }, { business: false }).company).toBe('vatNeedsCompany');
  });

  it('reads VAT numbers without spaces, dots or hyphens, in any case; Greece’s prefix is EL', () => {
    expect(regionProblems({ ...business, vatNumber: 'de 136.695-976' }, { business: true })).toEqual({});
    expect(regionProblems({ ...business, country: 'GR', postalCode: '105 57', vatNumber: 'EL094259216' }, { business: true })).toEqual({});
    expect(regionProblems({ ...business, country: 'GR', postalCode: '105 57', vatNumber: 'GR094259216' }, { business: true }).vatNumber).toBe('vatInvalid');
  });
});

describe('postal codes, per country (postcode-validator)', () => {
  it('refuses what is not one of the country’s codes', () => {
    expect(isPostalCode('DE', 'abc')).toBe(false);
    expect(isPostalCode('DE', '1011')).toBe(false);
    expect(isPostalCode('DE', '101155')).toBe(false);
    expect(isPostalCode('HU', '10511')).toBe(false);
    expect(isPostalCode('US', '9410')).toBe(false);
    expect(isPostalCode('GB', '12345')).toBe(false);
    expect(isPostalCode('NL', '1012')).toBe(false);
  });

  it('accepts the country’s codes, letters in any case and spaces trimmed', () => {
    expect(isPostalCode('DE', '10115')).toBe(true);
    expect(isPostalCode('HU', '1051')).toBe(true);
    expect(isPostalCode('US', '94103')).toBe(true);
    expect(isPostalCode('US', '94103-1234')).toBe(true);
    expect(isPostalCode('GB', 'SW1A 1AA')).toBe(true);
    expect(isPostalCode('GB', 'sw1a1aa')).toBe(true);
    expect(isPostalCode('NL', ' 1012 js ')).toBe(true);
    expect(isPostalCode('AT', '1010')).toBe(true);
  });

  it('accepts any reasonable code where the country has no postcode system the library knows', () => {
    expect(isPostalCode('HK', '000')).toBe(true);
    expect(isPostalCode('AE', '00000')).toBe(true);
    expect(isPostalCode('HK', '1')).toBe(false);
    expect(isPostalCode('HK', 'abc!')).toBe(false);
    expect(isPostalCode('HK', '12345678901')).toBe(false);
    expect(regionProblems({ ...business, country: 'HK', postalCode: '000', vatNumber: null }, { business: false })).toEqual({});
  });
});

describe('VAT numbers: the country’s format and check digits (jsvat-next)', () => {
  it('accepts real numbers', () => {
    for (const [country, vat] of [
      ['DE', 'DE136695976'],
      ['HU', 'HU12892312'],
      ['AT', 'ATU13585627'],
      ['FR', 'FR40303265045'],
      ['BE', 'BE0411905847'],
      // Belgium's numbers starting with 1, issued since 2023.
      ['BE', 'BE1000000021'],
      ['NL', 'NL004495445B01'],
      ['IT', 'IT00743110157'],
      ['GB', 'GB980780684'],
      ['CH', 'CHE116281710'],
    ] as const) {
      expect(isVatNumberFormat(country, vat), `${country} ${vat}`).toBe(true);
    }
  });

  it('refuses a wrong check digit, a wrong length and another country’s number', () => {
    expect(isVatNumberFormat('DE', 'DE123456789')).toBe(false);
    expect(isVatNumberFormat('DE', 'DE136695978')).toBe(false);
    expect(isVatNumberFormat('HU', 'HU12892313')).toBe(false);
    expect(isVatNumberFormat('AT', 'ATU12345678')).toBe(false);
    expect(isVatNumberFormat('GB', 'GB123456789')).toBe(false);
    expect(isVatNumberFormat('DE', 'DE13669597')).toBe(false);
    expect(isVatNumberFormat('DE', 'HU12892312')).toBe(false);
  });

  it('checks the EU, the UK, Switzerland and Norway; elsewhere only the length is asked for', () => {
    for (const country of ['DE', 'HU', 'FR', 'GR', 'GB', 'CH', 'NO']) expect(checksVatNumbers(country), country).toBe(true);
    expect(checksVatNumbers('US')).toBe(false);
    expect(regionProblems({ ...business, country: 'US', postalCode: '94103', vatNumber: '12-3456789' }, { business: true })).toEqual({});
  });
});

describe('messages', () => {
  const problems: RegionProblem[] = ['required', 'regionUnknown', 'postalCodeInvalid', 'vatTooShort', 'vatInvalid', 'vatNeedsCompany'];

  it('every problem has its text in en and de, different in each', () => {
    for (const problem of problems) {
      expect(enAccount.billing.problems[problem], problem).toBeTruthy();
      expect(deAccount.billing.problems[problem], problem).toBeTruthy();
      expect(deAccount.billing.problems[problem]).not.toBe(enAccount.billing.problems[problem]);
    }
  });

  it('the server’s billing-info refusals have their texts in en and de', () => {
    for (const key of ['BILLING_EMAIL_TAKEN', 'POSTAL_CODE_INVALID', 'VAT_NUMBER_INVALID'] as const) {
      expect(enAccount.errors[key], key).toBeTruthy();
      expect(deAccount.errors[key], key).toBeTruthy();
    }
  });
});
