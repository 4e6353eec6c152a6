import { ApiError } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Billing info (spec sections 2 and 5) through the real Paddle SDK and the stand-in: the customer's name
 * and billing email, its address and business; postal codes per country and VAT numbers by format and
 * check digits, refused by their own messageKey; an email another Paddle customer has is refused whole.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function session(server: TestServer) {
  const user = await server.createUser();
  const token = (await signIn(server, user.email, user.password)).access_token;
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  return { ...user, token, customerId };
}

const read = (server: TestServer, token: string) => call(server, 'GET', '/api/subscription/billing-info', token);
const update = (server: TestServer, token: string, payload: object, language = 'en') =>
  call(server, 'PATCH', '/api/subscription/billing-info', token, { payload, language });

/** A German business address with a real VAT number (its check digit is right). */
const GERMAN_BUSINESS = {
  name: 'Ada Lovelace',
  company: 'Analytical Engines GmbH',
  vatNumber: 'DE136695976',
  country: 'DE',
  state: 'Berlin',
  addressLine1: 'Unter den Linden 1',
  addressLine2: null,
  city: 'Berlin',
  postalCode: '10117',
};

describeEachDatabase(
  'billing info',
  (server) => {
    it('reads and updates billing info on the Paddle customer, address and business', async () => {
      const user = await session(server());
      const empty = await read(server(), user.token);
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.json()).toMatchObject({ email: user.email, country: null, company: null });

      const saved = await update(server(), user.token, GERMAN_BUSINESS);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ ...GERMAN_BUSINESS, email: user.email });
      expect((await read(server(), user.token)).json()).toEqual({ ...GERMAN_BUSINESS, email: user.email });

      const moved = await update(server(), user.token, { country: 'AT', postalCode: '1010', city: 'Wien', vatNumber: 'ATU13585627' });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ country: 'AT', city: 'Wien', vatNumber: 'ATU13585627', company: 'Analytical Engines GmbH' });
    });

    it('refuses a postal code that is not the country’s (POSTAL_CODE_INVALID) and keeps nothing of it', async () => {
      const user = await session(server());
      expect((await update(server(), user.token, GERMAN_BUSINESS)).statusCode).toBe(200);

      for (const language of ['en', 'de'] as const) {
        const refused = await update(server(), user.token, { postalCode: 'abc', city: 'Potsdam' }, language);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          messageKey: 'POSTAL_CODE_INVALID',
          message: language === 'en' ? 'This postal code is not valid for the selected country.' : 'Diese Postleitzahl ist für das gewählte Land nicht gültig.',
        });
      }
      // A US ZIP code is no German postal code, and a German one is no Hungarian one.
      expect((await update(server(), user.token, { postalCode: '94103-1234' })).json().messageKey).toBe('POSTAL_CODE_INVALID');
      expect((await update(server(), user.token, { country: 'HU', postalCode: '10115', vatNumber: null, company: null })).json().messageKey).toBe(
        'POSTAL_CODE_INVALID',
      );

      expect((await read(server(), user.token)).json()).toEqual({ ...GERMAN_BUSINESS, email: user.email });
      const [address] = await all(paddle.paddle.addresses.list(user.customerId));
      expect(address).toMatchObject({ postalCode: '10117', city: 'Berlin', countryCode: 'DE' });
    });

    it('refuses a VAT number with a wrong check digit or of another country (VAT_NUMBER_INVALID)', async () => {
      const user = await session(server());
      expect((await update(server(), user.token, GERMAN_BUSINESS)).statusCode).toBe(200);

      for (const language of ['en', 'de'] as const) {
        // DE123456789 has the German shape but not its check digit.
        const refused = await update(server(), user.token, { vatNumber: 'DE123456789' }, language);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          messageKey: 'VAT_NUMBER_INVALID',
          message: language === 'en' ? 'This VAT number is not valid for the selected country.' : 'Diese USt-IdNr. ist für das gewählte Land nicht gültig.',
        });
      }
      // A valid French number is not a German business's.
      expect((await update(server(), user.token, { vatNumber: 'FR40303265045' })).json().messageKey).toBe('VAT_NUMBER_INVALID');
      expect((await update(server(), user.token, { vatNumber: 'de 136.695-977' })).json().messageKey).toBe('VAT_NUMBER_INVALID');

      const [business] = await all(paddle.paddle.businesses.list(user.customerId));
      expect(business).toMatchObject({ name: 'Analytical Engines GmbH', taxIdentifier: 'DE136695976' });
      // Written with spaces, dots or hyphens, a valid number is kept as one.
      const respaced = await update(server(), user.token, { vatNumber: 'de 136.695-976' });
      expect(respaced.json()).toMatchObject({ vatNumber: 'DE136695976' });
    });

    it('answers INVALID_REGION_OR_VAT for the other region and VAT problems', async () => {
      const user = await session(server());
      expect((await update(server(), user.token, GERMAN_BUSINESS)).statusCode).toBe(200);
      for (const bad of [{ country: 'XX' }, { vatNumber: 'D' }, { company: null }, { country: 'XX', postalCode: 'abc' }]) {
        const refused = await update(server(), user.token, bad, 'de');
        expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
        expect(refused.json()).toEqual({ messageKey: 'INVALID_REGION_OR_VAT', message: 'Ungültige Region oder USt-IdNr.' });
      }
      expect((await read(server(), user.token)).json()).toEqual({ ...GERMAN_BUSINESS, email: user.email });
    });

    it('accepts a consumer with only a country, and a postal code where Paddle requires one (POSTAL_CODE_REQUIRED otherwise)', async () => {
      const user = await session(server());
      // Hungary: the country alone decides the tax.
      const hungarian = await update(server(), user.token, { country: 'HU', company: null, vatNumber: null });
      expect(hungarian.statusCode, hungarian.body).toBe(200);
      expect(hungarian.json()).toMatchObject({ country: 'HU', postalCode: null, company: null, vatNumber: null });
      expect(await all(paddle.paddle.businesses.list(user.customerId))).toEqual([]);

      // Germany needs a postal code: refused in the reader's language, and nothing changes.
      for (const language of ['en', 'de'] as const) {
        const refused = await update(server(), user.token, { country: 'DE' }, language);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          messageKey: 'POSTAL_CODE_REQUIRED',
          message: language === 'en' ? 'This country needs a postal code to work out the tax.' : 'Für dieses Land brauchen wir eine Postleitzahl, um die Steuer zu berechnen.',
        });
      }
      expect((await read(server(), user.token)).json().country).toBe('HU');
      const german = await update(server(), user.token, { country: 'DE', postalCode: '10117' });
      expect(german.statusCode, german.body).toBe(200);
      expect(german.json()).toMatchObject({ country: 'DE', postalCode: '10117', company: null, vatNumber: null, addressLine1: null, city: null });
      // A name alone is no address change: no postal code asked for.
      expect((await update(server(), user.token, { name: 'Grace Hopper' })).statusCode).toBe(200);
    });

    it('keeps validating a business: a VAT number needs a company and its country’s check digits; a consumer again archives the business', async () => {
      const user = await session(server());
      const withoutCompany = await update(server(), user.token, { country: 'DE', postalCode: '10117', vatNumber: 'DE136695976', company: null }, 'de');
      expect(withoutCompany.statusCode).toBe(400);
      expect(withoutCompany.json().messageKey).toBe('INVALID_REGION_OR_VAT');
      const badDigits = await update(server(), user.token, { ...GERMAN_BUSINESS, vatNumber: 'DE123456789' });
      expect(badDigits.json().messageKey).toBe('VAT_NUMBER_INVALID');
      expect(await all(paddle.paddle.businesses.list(user.customerId))).toEqual([]);

      expect((await update(server(), user.token, GERMAN_BUSINESS)).statusCode).toBe(200);
      // The same buyer turns "I'm buying as a business" off: company and VAT number go, the address stays.
      const consumer = await update(server(), user.token, { company: null, vatNumber: null });
      expect(consumer.statusCode, consumer.body).toBe(200);
      expect(consumer.json()).toMatchObject({ company: null, vatNumber: null, country: 'DE', postalCode: '10117', city: 'Berlin' });
      const [archived] = await all(paddle.paddle.businesses.list(user.customerId));
      expect(archived).toMatchObject({ name: 'Analytical Engines GmbH', status: 'archived' });
      expect(await all(paddle.paddle.businesses.list(user.customerId, { status: ['active'] }))).toEqual([]);
    });

    it('starts from the profile’s country while no billing address is saved', async () => {
      const user = await session(server());
      await server().db.kysely.updateTable('users').set({ country: 'at' }).where('id', '=', user.id).execute();
      server().app.bus.announce({ kind: 'account-changed', userId: user.id });
      expect((await read(server(), user.token)).json()).toMatchObject({ country: 'AT', postalCode: null });
      // Nothing is saved at Paddle by reading it.
      expect(await all(paddle.paddle.addresses.list(user.customerId))).toEqual([]);
      // A saved address wins over the profile.
      expect((await update(server(), user.token, { country: 'HU' })).statusCode).toBe(200);
      expect((await read(server(), user.token)).json().country).toBe('HU');
      // A profile country that is no known region is not offered.
      const other = await session(server());
      await server().db.kysely.updateTable('users').set({ country: 'XX' }).where('id', '=', other.id).execute();
      server().app.bus.announce({ kind: 'account-changed', userId: other.id });
      expect((await read(server(), other.token)).json().country).toBeNull();
    });

    it('changes the billing email on the Paddle customer; the sign-in email stays', async () => {
      const user = await session(server());
      const email = `billing-${user.customerId.slice(-8)}@example.com`;
      const changed = await update(server(), user.token, { email, name: 'Ada Lovelace' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ email, name: 'Ada Lovelace' });

      const customer = await paddle.paddle.customers.get(user.customerId);
      expect(customer).toMatchObject({ email, name: 'Ada Lovelace' });
      expect((await read(server(), user.token)).json().email).toBe(email);
      // Billing email only: the account still signs in with, and is known by, its own email.
      const me = await call(server(), 'GET', '/api/users/me', user.token);
      expect(me.json().email).toBe(user.email);
      expect((await signIn(server(), user.email, user.password)).access_token).toBeTruthy();
      // The same customer keeps being the user's.
      expect((await call(server(), 'GET', '/api/subscription/paddle/customer', user.token)).json().id).toBe(user.customerId);

      const invalid = await update(server(), user.token, { email: 'not an email' });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().messageKey).toBe('VALIDATION_FAILED');
    });

    it('refuses an email another Paddle customer has (BILLING_EMAIL_TAKEN, 409) and changes nothing', async () => {
      const user = await session(server());
      expect((await update(server(), user.token, GERMAN_BUSINESS)).statusCode).toBe(200);
      const other = await session(server());
      const outsider = await paddle.paddle.customers.create({ email: `outsider-${user.customerId.slice(-8)}@example.com` });

      // Another portal user's (refused before Paddle is asked) and a Paddle customer's who is no user (Paddle refuses).
      for (const [taken, language] of [
        [other.email, 'en'],
        [outsider.email, 'de'],
      ] as const) {
        const refused = await update(server(), user.token, { email: taken, name: 'Someone Else', city: 'Potsdam', postalCode: '14467' }, language);
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toEqual({
          messageKey: 'BILLING_EMAIL_TAKEN',
          message:
            language === 'en'
              ? 'This email address is already used by another billing account.'
              : 'Diese E-Mail-Adresse wird bereits von einem anderen Abrechnungskonto verwendet.',
        });
      }

      expect((await read(server(), user.token)).json()).toEqual({ ...GERMAN_BUSINESS, email: user.email });
      expect(await paddle.paddle.customers.get(user.customerId)).toMatchObject({ email: user.email, name: 'Ada Lovelace' });
      expect(await paddle.paddle.customers.get(other.customerId)).toMatchObject({ email: other.email });
      const [address] = await all(paddle.paddle.addresses.list(user.customerId));
      expect(address).toMatchObject({ city: 'Berlin', postalCode: '10117' });

      // What the server read: the stand-in answers as Paddle does (409 customer_already_exists, naming the holder).
      const direct = await paddle.paddle.customers.update(user.customerId, { email: other.email }).catch((error: unknown) => error);
      expect(direct).toBeInstanceOf(ApiError);
      expect(direct).toMatchObject({ code: 'customer_already_exists', detail: `customer email conflicts with customer of id ${other.customerId}` });

      // Its own email again is no conflict.
      const same = await update(server(), user.token, { email: user.email });
      expect(same.statusCode, same.body).toBe(200);
    });

    it('keeps other users’ sign-in emails theirs: never a billing email, never another’s customer', async () => {
      const user = await session(server());
      // A registered user without a Paddle customer yet: their sign-in email would make them adopt this one.
      const registered = await server().createUser();
      const refused = await update(server(), user.token, { email: registered.email }, 'de');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().messageKey).toBe('BILLING_EMAIL_TAKEN');
      expect((await paddle.paddle.customers.get(user.customerId)).email).toBe(user.email);

      // Someone who signs up later with another user's billing email does not get that user's customer.
      const email = `later-${user.customerId.slice(-8)}@example.com`;
      expect((await update(server(), user.token, { email })).statusCode).toBe(200);
      const later = await server().createUser({ email });
      const token = (await signIn(server(), later.email, later.password)).access_token;
      const customer = await call(server(), 'GET', '/api/subscription/paddle/customer', token);
      expect(customer.statusCode).toBe(409);
      expect(customer.json().messageKey).toBe('BILLING_EMAIL_TAKEN');
      expect((await call(server(), 'GET', '/api/subscription/paddle/customer', user.token)).json().id).toBe(user.customerId);
    });
  },
  () => ({ billing: paddle.billing }),
);

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}
