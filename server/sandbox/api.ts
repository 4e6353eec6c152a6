import type {
  CountryCode,
  CurrencyCode,
  IAddressResponse,
  IBusinessResponse,
  ICustomerResponse,
  IDiscountResponse,
  IPriceResponse,
  IPricingPreviewLineItemResponse,
  IPricingPreviewResponse,
} from '@paddle/paddle-node-sdk';
import type { Clock } from '../clock.js';
import { invalid, list, notFound, SandboxError, type Route, type SandboxRequest } from './http.js';
import { paddleId, type SandboxState } from './state.js';
import { formatMoney, taxRate } from './tax.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const ids = (query: URLSearchParams, name: string) => query.get(name)?.split(',').filter(Boolean) ?? null;

/** The discount's problem with being used now, as Paddle names it, or null when it can be used. */
export function discountProblem(discount: IDiscountResponse, now: Date): string | null {
  if (discount.status === 'archived') return 'discount_archived';
  if (discount.expires_at && new Date(discount.expires_at) <= now) return 'discount_expired';
  if (discount.usage_limit != null && discount.times_used >= discount.usage_limit) return 'discount_usage_limit_exceeded';
  return null;
}

/** The price a buyer in `country` pays: the country's override when there is one. */
function unitPriceFor(price: IPriceResponse, country: string | null, currency: string | null) {
  const override = price.unit_price_overrides?.find(
    (o) => (currency ? o.unit_price.currency_code === currency : country !== null && o.country_codes.includes(country as CountryCode)),
  );
  return override?.unit_price ?? price.unit_price;
}

export function discountAmount(discount: IDiscountResponse, subtotal: number, quantity: number, currency: string): number {
  if (discount.type === 'percentage') return Math.round((subtotal * Number(discount.amount)) / 100);
  if (discount.currency_code && discount.currency_code !== currency) return 0;
  const flat = Number(discount.amount) * (discount.type === 'flat_per_seat' ? quantity : 1);
  return Math.min(flat, subtotal);
}

export function sandboxRoutes(state: SandboxState, clock: Clock): Route[] {
  const data = state.data;
  const now = () => clock.now().toISOString();

  const customer = (id: string) => {
    const found = data.customers.find((c) => c.id === id);
    if (!found) throw notFound('Customer');
    return found;
  };

  /**
   * A customer's email is unique at Paddle, on creation and on update alike: another customer's email
   * is answered 409 `customer_already_exists`, naming that customer (Paddle's error for both).
   */
  const refuseTakenEmail = (email: string, customerId: string | null) => {
    const holder = data.customers.find((c) => c.email === email && c.id !== customerId);
    if (holder) throw new SandboxError(409, 'customer_already_exists', `customer email conflicts with customer of id ${holder.id}`);
  };

  const productWithPrices = (include: boolean) => (product: (typeof data.products)[number]) =>
    include ? { ...product, prices: data.prices.filter((p) => p.product_id === product.id && p.type !== 'custom') } : product;

  function preview(request: SandboxRequest): IPricingPreviewResponse {
    const body = request.body;
    const items = Array.isArray(body.items) ? (body.items as { price_id?: string; quantity?: number }[]) : [];
    if (items.length === 0) throw invalid('items: at least one item is required');
    const customerId = text(body.customer_id);
    const addressId = text(body.address_id);
    const businessId = text(body.business_id);
    const address = addressId ? data.addresses.find((a) => a.id === addressId && a.customer_id === customerId) : undefined;
    if (addressId && !address) throw notFound('Address');
    const business = businessId ? data.businesses.find((b) => b.id === businessId && b.customer_id === customerId) : undefined;
    if (businessId && !business) throw notFound('Business');
    const given = (body.address ?? null) as { country_code?: string; postal_code?: string } | null;
    const country = address?.country_code ?? text(given?.country_code);
    const discountId = text(body.discount_id);
    const discount = discountId ? data.discounts.find((d) => d.id === discountId) : undefined;
    if (discountId && !discount) throw notFound('Discount');
    if (discount) {
      const problem = discountProblem(discount, clock.now());
      if (problem) throw new SandboxError(400, problem, `Discount ${discount.id} cannot be used: ${problem}`);
    }
    const rate = taxRate(country, business ? { taxIdentifier: business.tax_identifier ?? null } : null);
    let currency = text(body.currency_code);

    const lineItems: IPricingPreviewLineItemResponse[] = items.map((item) => {
      const price = data.prices.find((p) => p.id === item.price_id && p.status === 'active');
      if (!price) throw notFound(`Price ${item.price_id ?? ''}`);
      const product = data.products.find((p) => p.id === price.product_id);
      if (!product) throw notFound('Product');
      const quantity = item.quantity ?? 1;
      const unit = unitPriceFor(price, country, currency);
      currency ??= unit.currency_code;
      const subtotal = Number(unit.amount) * quantity;
      const applies = discount && (!discount.restrict_to?.length || discount.restrict_to.includes(price.id) || discount.restrict_to.includes(product.id));
      const off = applies && discount ? discountAmount(discount, subtotal, quantity, unit.currency_code) : 0;
      const tax = Math.round(((subtotal - off) * rate) / 100);
      const totals = { subtotal: String(subtotal), discount: String(off), tax: String(tax), total: String(subtotal - off + tax) };
      const format = (t: typeof totals) => ({
        subtotal: formatMoney(Number(t.subtotal), unit.currency_code),
        discount: formatMoney(Number(t.discount), unit.currency_code),
        tax: formatMoney(Number(t.tax), unit.currency_code),
        total: formatMoney(Number(t.total), unit.currency_code),
      });
      const unitTotals = {
        subtotal: unit.amount,
        discount: String(Math.round(off / quantity)),
        tax: String(Math.round(tax / quantity)),
        total: String(Math.round((subtotal - off + tax) / quantity)),
      };
      return {
        price,
        quantity,
        tax_rate: String(rate / 100),
        unit_totals: unitTotals,
        formatted_unit_totals: format(unitTotals),
        totals,
        formatted_totals: format(totals),
        product,
        discounts: applies && discount ? [{ discount, total: String(off), formatted_total: formatMoney(off, unit.currency_code) }] : [],
      };
    });
    return {
      customer_id: customerId,
      address_id: addressId,
      business_id: businessId,
      currency_code: (currency ?? 'USD') as CurrencyCode,
      discount_id: discountId,
      address: given?.country_code ? { country_code: given.country_code as CountryCode, postal_code: given.postal_code ?? null } : null,
      customer_ip_address: null,
      items: items.map((item) => ({ price_id: item.price_id ?? null, quantity: item.quantity ?? 1 })),
      details: { line_items: lineItems },
      available_payment_methods: ['card', 'paypal'],
    };
  }

  return [
    {
      method: 'GET',
      pattern: /^\/products$/,
      handle: ({ query }) => {
        const only = ids(query, 'id');
        const status = ids(query, 'status');
        return list(
          data.products
            .filter((p) => (!only || only.includes(p.id)) && (!status || status.includes(p.status)))
            .map(productWithPrices(query.get('include')?.includes('prices') ?? false)),
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/prices$/,
      handle: ({ query }) => {
        const only = ids(query, 'id');
        const products = ids(query, 'product_id');
        const status = ids(query, 'status');
        // Non-catalogue (custom) prices are listed only when asked for, as at Paddle.
        const type = query.get('type') ?? 'standard';
        return list(
          data.prices.filter(
            (p) =>
              (!only || only.includes(p.id)) &&
              (!products || products.includes(p.product_id)) &&
              (!status || status.includes(p.status)) &&
              (p.type ?? 'standard') === type,
          ),
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/discounts$/,
      handle: ({ query }) => {
        const only = ids(query, 'id');
        const codes = ids(query, 'code');
        const status = ids(query, 'status');
        return list(
          data.discounts.filter(
            (d) =>
              (!only || only.includes(d.id)) &&
              (!codes || (d.code !== null && d.code !== undefined && codes.some((c) => c.toUpperCase() === d.code?.toUpperCase()))) &&
              (!status || status.includes(d.status)),
          ),
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/discounts\/([\w-]+)$/,
      handle: (_request, [id]) => data.discounts.find((d) => d.id === id) ?? (() => { throw notFound('Discount'); })(),
    },
    {
      method: 'GET',
      pattern: /^\/customers$/,
      handle: ({ query }) => {
        const emails = ids(query, 'email');
        return list(data.customers.filter((c) => !emails || emails.includes(c.email)));
      },
    },
    {
      method: 'POST',
      pattern: /^\/customers$/,
      handle: ({ body }) => {
        const email = text(body.email)?.toLowerCase();
        if (!email) throw invalid('email: is required');
        refuseTakenEmail(email, null);
        const created: ICustomerResponse = {
          id: paddleId('ctm'),
          name: text(body.name),
          email,
          marketing_consent: false,
          status: 'active',
          custom_data: (body.custom_data as ICustomerResponse['custom_data']) ?? null,
          locale: text(body.locale) ?? 'en',
          created_at: now(),
          updated_at: now(),
          import_meta: null,
        };
        data.customers.push(created);
        state.save();
        return created;
      },
    },
    { method: 'GET', pattern: /^\/customers\/([\w-]+)$/, handle: (_request, [id]) => customer(id as string) },
    {
      method: 'PATCH',
      pattern: /^\/customers\/([\w-]+)$/,
      handle: ({ body }, [id]) => {
        const found = customer(id as string);
        // Checked before anything changes: Paddle refuses the whole update.
        const email = 'email' in body ? (text(body.email)?.toLowerCase() ?? null) : undefined;
        if (email === null) throw invalid('email: must be a valid email address');
        if (email) refuseTakenEmail(email, found.id);
        if ('name' in body) found.name = text(body.name);
        if (email) found.email = email;
        if ('locale' in body && text(body.locale)) found.locale = text(body.locale) as string;
        found.updated_at = now();
        state.save();
        return found;
      },
    },
    {
      method: 'GET',
      pattern: /^\/customers\/([\w-]+)\/addresses$/,
      handle: (_request, [id]) => list(data.addresses.filter((a) => a.customer_id === customer(id as string).id)),
    },
    {
      method: 'POST',
      pattern: /^\/customers\/([\w-]+)\/addresses$/,
      handle: ({ body }, [id]) => {
        const owner = customer(id as string);
        const countryCode = text(body.country_code);
        if (!countryCode || !/^[A-Z]{2}$/.test(countryCode)) throw invalid('country_code: must be a valid country code');
        const created: IAddressResponse = {
          id: paddleId('add'),
          customer_id: owner.id,
          description: text(body.description),
          first_line: text(body.first_line),
          second_line: text(body.second_line),
          city: text(body.city),
          postal_code: text(body.postal_code),
          region: text(body.region),
          country_code: countryCode as CountryCode,
          custom_data: null,
          status: 'active',
          created_at: now(),
          updated_at: now(),
          import_meta: null,
        };
        data.addresses.push(created);
        state.save();
        return created;
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/customers\/([\w-]+)\/addresses\/([\w-]+)$/,
      handle: ({ body }, [customerId, addressId]) => {
        const found = data.addresses.find((a) => a.id === addressId && a.customer_id === customer(customerId as string).id);
        if (!found) throw notFound('Address');
        for (const field of ['first_line', 'second_line', 'city', 'postal_code', 'region', 'description'] as const) {
          if (field in body) found[field] = text(body[field]);
        }
        if ('country_code' in body) {
          const countryCode = text(body.country_code);
          if (!countryCode || !/^[A-Z]{2}$/.test(countryCode)) throw invalid('country_code: must be a valid country code');
          found.country_code = countryCode as CountryCode;
        }
        found.updated_at = now();
        state.save();
        return found;
      },
    },
    {
      method: 'GET',
      pattern: /^\/customers\/([\w-]+)\/businesses$/,
      // Paddle's `status` filter: the portal asks for active businesses only, an archived one is a former.
      handle: ({ query }, [id]) => {
        const statuses = query.get('status')?.split(',') ?? null;
        return list(data.businesses.filter((b) => b.customer_id === customer(id as string).id && (!statuses || statuses.includes(b.status))));
      },
    },
    {
      method: 'POST',
      pattern: /^\/customers\/([\w-]+)\/businesses$/,
      handle: ({ body }, [id]) => {
        const owner = customer(id as string);
        const name = text(body.name);
        if (!name) throw invalid('name: is required');
        const created: IBusinessResponse = {
          id: paddleId('biz'),
          customer_id: owner.id,
          name,
          company_number: text(body.company_number),
          tax_identifier: text(body.tax_identifier),
          status: 'active',
          contacts: [],
          created_at: now(),
          updated_at: now(),
          custom_data: null,
          import_meta: null,
        };
        data.businesses.push(created);
        state.save();
        return created;
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/customers\/([\w-]+)\/businesses\/([\w-]+)$/,
      handle: ({ body }, [customerId, businessId]) => {
        const found = data.businesses.find((b) => b.id === businessId && b.customer_id === customer(customerId as string).id);
        if (!found) throw notFound('Business');
        if ('name' in body && text(body.name)) found.name = text(body.name) as string;
        if ('tax_identifier' in body) found.tax_identifier = text(body.tax_identifier);
        if ('company_number' in body) found.company_number = text(body.company_number);
        if (body.status === 'active' || body.status === 'archived') found.status = body.status;
        found.updated_at = now();
        state.save();
        return found;
      },
    },
    { method: 'POST', pattern: /^\/pricing-preview$/, handle: (request) => preview(request) },
  ];
}
