import { describe, expect, it } from 'vitest';
import { regionProblems, type RegionValues } from '../../contract/billing-validation.js';

/** Spec section 5, checkout region: the rules the region and VAT dialog, billing info and the server share. */
const business: RegionValues = {
  country: 'DE',
  state: 'Berlin',
  addressLine1: 'Unter den Linden 1',
  city: 'Berlin',
  postalCode: '10117',
  company: 'Analytical Engines GmbH',
  vatNumber: 'DE123456789',
};

describe('region and VAT validation', () => {
  it('accepts a complete business address with a VAT number of the country’s format', () => {
    expect(regionProblems(business, { business: true })).toEqual({});
  });

  it('requires postcode, region, town, street, company and VAT number in the dialog', () => {
    const empty = { country: 'DE', state: '', addressLine1: ' ', city: null, postalCode: '', company: '', vatNumber: '' };
    expect(regionProblems(empty, { business: true })).toEqual({
      postalCode: 'required',
      state: 'required',
      city: 'required',
      addressLine1: 'required',
      company: 'required',
      vatNumber: 'required',
    });
  });

  it('asks only for country and postcode on billing info, checking the rest when given', () => {
    const person = { country: 'US', state: null, addressLine1: null, city: null, postalCode: '94103', company: null, vatNumber: null };
    expect(regionProblems(person, { business: false })).toEqual({});
    expect(regionProblems({ ...person, country: null, postalCode: null }, { business: false })).toEqual({ country: 'required', postalCode: 'required' });
  });

  it('names an unknown region, an invalid postcode, a short or malformed VAT number, and a VAT number without company', () => {
    expect(regionProblems({ ...business, country: 'XX' }, { business: true }).country).toBe('regionUnknown');
    expect(regionProblems({ ...business, postalCode: '1' }, { business: true }).postalCode).toBe('postalCodeInvalid');
    expect(regionProblems({ ...business, postalCode: '10117!' }, { business: true }).postalCode).toBe('postalCodeInvalid');
    expect(regionProblems({ ...business, country: 'US', vatNumber: 'X' }, { business: true }).vatNumber).toBe('vatTooShort');
    expect(regionProblems({ ...business, vatNumber: 'FR12345678901' }, { business: true }).vatNumber).toBe('vatInvalid');
    expect(regionProblems({ ...business, company: null }, { business: false }).company).toBe('vatNeedsCompany');
  });

  it('reads VAT numbers without spaces, dots or hyphens, in any case', () => {
    expect(regionProblems({ ...business, vatNumber: 'de 123.456-789' }, { business: true })).toEqual({});
    expect(regionProblems({ ...business, country: 'GR', vatNumber: 'EL123456789' }, { business: true })).toEqual({});
  });
});
