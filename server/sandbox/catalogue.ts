import type { IDiscountResponse, IPriceResponse, IProductResponse } from '@paddle/paddle-node-sdk';

/**
 * The catalogue the Paddle stand-in starts with, in Paddle's own response shapes. Amounts are strings of
 * minor units, as Paddle sends them (USD cents; HUF fillér, Paddle's two-decimal HUF).
 */
const CREATED = '2024-01-15T09:00:00.000000Z';

export const PRODUCT_IDS = {
  subscription: 'pro_01hsubscription0000000000',
  perpetual2025: 'pro_01hperpetual20250000000000',
  perpetual2024: 'pro_01hperpetual20240000000000',
} as const;

export const PRICE_IDS = {
  monthly: 'pri_01hmonthly00000000000000000',
  yearly: 'pri_01hyearly000000000000000000',
  perpetual2025: 'pri_01hperpetual2025000000000',
  perpetual2024: 'pri_01hperpetual2024000000000',
} as const;

export const DISCOUNT_IDS = {
  launchMonthly: 'dsc_01hlaunchmonthly0000000000',
  welcome: 'dsc_01hwelcome20000000000000000',
  flat: 'dsc_01hsave10000000000000000000',
  humble: 'dsc_01hhumble2025000000000000000',
  expired: 'dsc_01hsummer20230000000000000',
  archived: 'dsc_01holdpromo0000000000000000',
  usedUp: 'dsc_01honeuse00000000000000000',
  upgrade: 'dsc_01hupgrade2024000000000000',
} as const;

function product(id: string, name: string, description: string, customData: Record<string, unknown> | null): IProductResponse {
  return {
    id,
    name,
    type: 'standard',
    description,
    tax_category: 'standard',
    image_url: null,
    custom_data: customData,
    status: 'active',
    created_at: CREATED,
    updated_at: CREATED,
    import_meta: null,
  };
}

function price(
  id: string,
  productId: string,
  description: string,
  usd: number,
  huf: number,
  extra: Partial<IPriceResponse> = {},
): IPriceResponse {
  return {
    id,
    product_id: productId,
    description,
    type: 'standard',
    name: description,
    billing_cycle: null,
    trial_period: null,
    tax_mode: 'external',
    unit_price: { amount: String(usd), currency_code: 'USD' },
    unit_price_overrides: [{ country_codes: ['HU'], unit_price: { amount: String(huf), currency_code: 'HUF' } }],
    quantity: { minimum: 1, maximum: 1 },
    status: 'active',
    created_at: CREATED,
    updated_at: CREATED,
    custom_data: null,
    import_meta: null,
    ...extra,
  };
}

function discount(id: string, fields: Partial<IDiscountResponse> & Pick<IDiscountResponse, 'description' | 'type' | 'amount'>): IDiscountResponse {
  return {
    id,
    status: 'active',
    enabled_for_checkout: true,
    code: null,
    mode: 'standard',
    currency_code: null,
    recur: false,
    maximum_recurring_intervals: null,
    usage_limit: null,
    restrict_to: null,
    expires_at: null,
    custom_data: null,
    times_used: 0,
    created_at: CREATED,
    updated_at: CREATED,
    import_meta: null,
    discount_group_id: null,
    discount_group: null,
    ...fields,
  };
}

/** A discount's German description, where the portal reads it (server/modules/billing/catalogue.ts, discountText). */
function german(description: string): { i18n: { de: { description: string } } } {
  return { i18n: { de: { description } } };
}

/**
 * Every entry in English (Paddle's own fields) and German (`custom_data.i18n.de`): tests/unit/german-voice.test.ts
 * fails on an entry without its German text (issue 48 item 4).
 */
export function seedCatalogue(): { products: IProductResponse[]; prices: IPriceResponse[]; discounts: IDiscountResponse[] } {
  const products = [
    // German texts in custom_data.i18n.de, as the portal reads them (server/modules/billing/catalogue.ts, catalogueText).
    product(PRODUCT_IDS.subscription, 'Shapelab Subscription', 'Every release while subscribed, on two devices at once.', {
      kind: 'subscription',
      i18n: { de: { name: 'Shapelab-Abonnement', description: 'Jede Version, solange du abonniert bist, auf zwei Geräten gleichzeitig.' } },
    }),
    product(PRODUCT_IDS.perpetual2025, 'Shapelab 2025', 'The 2025 release to keep, with its updates.', {
      kind: 'perpetual',
      shapelabRelease: '2025',
      i18n: { de: { name: 'Shapelab 2025', description: 'Die Version 2025 zum Behalten, mit ihren Updates.' } },
    }),
    product(PRODUCT_IDS.perpetual2024, 'Shapelab 2024', 'The 2024 release to keep, with free updates until the end of 2025.', {
      kind: 'perpetual',
      shapelabRelease: '2024',
      i18n: { de: { name: 'Shapelab 2024', description: 'Die Version 2024 zum Behalten, mit kostenlosen Updates bis Ende 2025.' } },
    }),
  ];
  const trial = { interval: 'day' as const, frequency: 14, requires_payment_method: true };
  const prices = [
    price(PRICE_IDS.monthly, PRODUCT_IDS.subscription, 'Monthly', 1999, 799000, {
      billing_cycle: { interval: 'month', frequency: 1 },
      trial_period: trial,
      custom_data: { plan: 'monthly', defaultDiscountId: DISCOUNT_IDS.launchMonthly, i18n: { de: { description: 'Monatlich' } } },
    }),
    // Yearly is priced as ten months: two months free.
    price(PRICE_IDS.yearly, PRODUCT_IDS.subscription, 'Yearly', 19990, 7990000, {
      billing_cycle: { interval: 'year', frequency: 1 },
      trial_period: trial,
      custom_data: { plan: 'yearly', i18n: { de: { description: 'Jährlich' } } },
    }),
    price(PRICE_IDS.perpetual2025, PRODUCT_IDS.perpetual2025, 'Shapelab 2025 perpetual licence', 29900, 11990000, {
      custom_data: { i18n: { de: { description: 'Shapelab 2025 Dauerlizenz' } } },
    }),
    price(PRICE_IDS.perpetual2024, PRODUCT_IDS.perpetual2024, 'Shapelab 2024 perpetual licence', 24900, 9990000, {
      custom_data: { i18n: { de: { description: 'Shapelab 2024 Dauerlizenz' } } },
    }),
  ];
  const discounts = [
    discount(DISCOUNT_IDS.launchMonthly, {
      description: 'Launch offer: first month half price',
      type: 'percentage',
      amount: '50',
      restrict_to: [PRICE_IDS.monthly],
      custom_data: german('Einführungsangebot: erster Monat zum halben Preis'),
    }),
    // Off the first three billing periods (Paddle: recur with maximum_recurring_intervals); the launch
    // offer is off the first payment only (recur false).
    discount(DISCOUNT_IDS.welcome, {
      description: 'Welcome: 20% off',
      type: 'percentage',
      amount: '20',
      code: 'WELCOME20',
      recur: true,
      maximum_recurring_intervals: 3,
      custom_data: german('Willkommen: 20 % Rabatt'),
    }),
    discount(DISCOUNT_IDS.flat, { description: '10 USD off', type: 'flat', amount: '1000', currency_code: 'USD', code: 'SAVE10', custom_data: german('10 USD Rabatt') }),
    discount(DISCOUNT_IDS.humble, {
      description: 'Humble Bundle: 30% off Shapelab 2025',
      type: 'percentage',
      amount: '30',
      code: 'HUMBLE2025',
      restrict_to: [PRICE_IDS.perpetual2025],
      custom_data: { humbleBundle: true, ...german('Humble Bundle: 30 % Rabatt auf Shapelab 2025') },
    }),
    discount(DISCOUNT_IDS.expired, {
      description: 'Summer 2023',
      type: 'percentage',
      amount: '25',
      code: 'SUMMER2023',
      expires_at: '2023-09-01T00:00:00Z',
      custom_data: german('Sommer 2023'),
    }),
    discount(DISCOUNT_IDS.archived, { description: 'An old promotion', type: 'percentage', amount: '15', code: 'OLDPROMO', status: 'archived', custom_data: german('Eine alte Aktion') }),
    discount(DISCOUNT_IDS.usedUp, {
      description: 'One use only',
      type: 'percentage',
      amount: '10',
      code: 'ONEUSE',
      usage_limit: 1,
      times_used: 1,
      custom_data: german('Nur einmal einlösbar'),
    }),
    discount(DISCOUNT_IDS.upgrade, {
      description: 'Upgrade from Shapelab 2024: 40% off',
      type: 'percentage',
      amount: '40',
      enabled_for_checkout: true,
      restrict_to: [PRICE_IDS.perpetual2025],
      custom_data: { upgradeFromRelease: '2024', ...german('Upgrade von Shapelab 2024: 40 % Rabatt') },
    }),
  ];
  return { products, prices, discounts };
}
