/**
 * The stand-in's checkout page, shown in the frame that the stand-in Paddle.js opens: what is bought,
 * what is due today, and a test card form (or PayPal). It pays through the portal's /paddle-sandbox/api
 * and reports each step to the page that opened it with Paddle's checkout event names.
 *
 * Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341
 * succeeds now and is declined on later charges. Any future expiry, any 3- or 4-digit security code.
 *
 * Browser code: compiled by esbuild when served (server/sandbox/checkout-routes.ts), never bundled.
 */
import type { CheckoutEventsData } from '@paddle/paddle-js';

const query = new URLSearchParams(window.location.search);
const transactionId = query.get('txn') ?? '';
const token = query.get('token') ?? '';
const locale = query.get('locale') ?? 'en';
const dark = query.get('theme') === 'dark';

function post(name: string, extra: Record<string, unknown> = {}): void {
  window.parent.postMessage({ source: 'paddle-sandbox-checkout', name, ...extra }, window.location.origin);
}

async function api(path: string, body: Record<string, unknown>): Promise<CheckoutEventsData> {
  const response = await fetch(`api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...body }),
  });
  const json = (await response.json()) as { data?: CheckoutEventsData; error?: { code: string; detail: string } };
  if (!response.ok || !json.data) throw Object.assign(new Error(json.error?.detail ?? 'Error'), { code: json.error?.code ?? 'unknown', detail: json.error?.detail ?? '' });
  return json.data;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * Every word of the checkout in the checkout's locale (Paddle's own checkout follows the `locale` it is
 * given likewise; issue 48): English, or German for a `de` locale.
 */
const WORDS = {
  en: {
    checkout: 'Checkout',
    summary: 'Order summary',
    discount: 'Discount',
    tax: 'Tax',
    dueToday: 'Due today',
    trialNote: (days: number, amount: string, interval: string) => `First payment after the ${days}-day trial: ${amount}, then billed every ${interval === 'year' ? 'year' : 'month'}.`,
    payment: 'Payment',
    paypal: 'Continue with PayPal',
    orCard: 'or pay by card',
    cardDetails: 'Card details',
    cardNumber: 'Card number',
    expiry: 'Expiry date',
    expiryPlaceholder: 'MM/YY',
    securityCode: 'Security code',
    nameOnCard: 'Name on card',
    pay: (amount: string) => `Pay ${amount}`,
    startTrial: 'Start free trial',
    updateTitle: 'Update your card',
    updateNote: 'The new card is used for your next payments.',
    saveCard: 'Save card',
    processing: 'Processing payment…',
    paid: 'Payment successful. Thank you!',
    declined: 'Your card was declined. Try another card.',
    failed: (detail: string) => `Payment failed: ${detail}`,
    badNumber: 'Enter a valid card number.',
    badExpiry: 'Enter a future expiry date as MM/YY.',
    badCode: 'Enter the 3 or 4 digit security code.',
    badName: 'Enter the name on the card.',
    cannotShow: (detail: string) => `This checkout cannot be shown: ${detail}`,
  },
  de: {
    checkout: 'Kasse',
    summary: 'Bestellübersicht',
    discount: 'Rabatt',
    tax: 'Steuer',
    dueToday: 'Heute fällig',
    trialNote: (days: number, amount: string, interval: string) =>
      `Erste Zahlung nach dem ${days}-tägigen Testzeitraum: ${amount}, danach ${interval === 'year' ? 'jährlich' : 'monatlich'}.`,
    payment: 'Zahlung',
    paypal: 'Weiter mit PayPal',
    orCard: 'oder mit Karte bezahlen',
    cardDetails: 'Kartendaten',
    cardNumber: 'Kartennummer',
    expiry: 'Ablaufdatum',
    expiryPlaceholder: 'MM/JJ',
    securityCode: 'Sicherheitscode',
    nameOnCard: 'Name auf der Karte',
    pay: (amount: string) => `Bezahlen: ${amount}`,
    startTrial: 'Kostenlos testen',
    updateTitle: 'Karte aktualisieren',
    updateNote: 'Die neue Karte wird für deine nächsten Zahlungen verwendet.',
    saveCard: 'Karte speichern',
    processing: 'Zahlung wird verarbeitet…',
    paid: 'Zahlung erfolgreich. Vielen Dank!',
    declined: 'Deine Karte wurde abgelehnt. Versuche es mit einer anderen Karte.',
    failed: (detail: string) => `Zahlung fehlgeschlagen: ${detail}`,
    badNumber: 'Gib eine gültige Kartennummer ein.',
    badExpiry: 'Gib ein künftiges Ablaufdatum als MM/JJ ein.',
    badCode: 'Gib den 3- oder 4-stelligen Sicherheitscode ein.',
    badName: 'Gib den Namen auf der Karte ein.',
    cannotShow: (detail: string) => `Diese Kasse kann nicht angezeigt werden: ${detail}`,
  },
} as const;
const german = locale.toLowerCase().startsWith('de');
const words = german ? WORDS.de : WORDS.en;
document.documentElement.lang = german ? 'de' : 'en';

const money = (amount: number, currency: string) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);

/** Card number check: 13 to 19 digits passing the Luhn sum. */
function cardNumberValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function expiryValid(value: string): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  const now = new Date();
  return month >= 1 && month <= 12 && (year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1));
}

function reportHeight(): void {
  post('resize', { height: document.documentElement.scrollHeight });
}

function field(id: string, label: string, attributes: Record<string, string>) {
  const input = element('input', { id, name: id, required: '', 'aria-describedby': `${id}-error`, ...attributes });
  const error = element('div', { id: `${id}-error`, class: 'error', role: 'alert' });
  return { input, error, node: element('div', { class: 'field' }, element('label', { for: id }, label), input, error) };
}

function render(data: CheckoutEventsData & { sandbox_purpose?: string }): void {
  const currency = data.currency_code;
  const trial = data.items.find((item) => item.trial_period);
  const due = data.totals.balance ?? data.totals.total;
  // Paddle's update-payment-method checkout asks for a card only: no items, no prices, no "Pay".
  const updatingCard = data.sandbox_purpose === 'payment-method-change';
  const main = element('main', { 'aria-label': updatingCard ? words.updateTitle : words.checkout });

  const summary = updatingCard
    ? element('section', { 'aria-label': words.updateTitle }, element('h1', { class: 'title' }, words.updateTitle), element('p', { class: 'note' }, words.updateNote))
    : element('section', { 'aria-label': words.summary });
  if (!updatingCard) renderSummary(summary, data, trial, due);
  main.append(summary);
  renderPayment(main, data, updatingCard ? words.saveCard : trial?.trial_period && due === 0 ? words.startTrial : words.pay(money(due, currency)));
}

function renderSummary(summary: HTMLElement, data: CheckoutEventsData, trial: CheckoutEventsData['items'][number] | undefined, due: number): void {
  const currency = data.currency_code;
  for (const item of data.items) {
    // A trial item is free today; its line shows what it will cost.
    const subtotal = item.trial_period && item.recurring_totals ? item.recurring_totals.subtotal : item.totals.subtotal;
    summary.append(element('div', { class: 'row' }, element('span', {}, item.price_name ?? item.product.name), element('span', {}, money(subtotal, currency))));
  }
  if (data.totals.discount > 0) summary.append(element('div', { class: 'row' }, element('span', {}, words.discount), element('span', {}, `−${money(data.totals.discount, currency)}`)));
  summary.append(element('div', { class: 'row' }, element('span', {}, words.tax), element('span', {}, money(data.totals.tax, currency))));
  summary.append(element('div', { class: 'row total' }, element('span', {}, words.dueToday), element('span', { 'data-testid': 'due-today' }, money(due, currency))));
  if (trial?.trial_period && data.recurring_totals) {
    summary.append(
      element('p', { class: 'note' }, words.trialNote(trial.trial_period.frequency, money(data.recurring_totals.total, currency), trial.billing_cycle?.interval ?? 'month')),
    );
  }
}

function renderPayment(main: HTMLElement, data: CheckoutEventsData, submitLabel: string): void {
  const status = element('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  // Only the card form's submit button may start with 'Pay' (or be the trial's or the card update's
  // button): tools find it by that name.
  const paypal = element('button', { type: 'button', class: 'paypal' }, words.paypal);
  const number = field('card-number', words.cardNumber, { inputmode: 'numeric', autocomplete: 'cc-number', placeholder: '4242 4242 4242 4242' });
  const expiry = field('card-expiry', words.expiry, { inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: words.expiryPlaceholder });
  const cvc = field('card-cvc', words.securityCode, { inputmode: 'numeric', autocomplete: 'cc-csc', placeholder: '123' });
  const name = field('card-name', words.nameOnCard, { autocomplete: 'cc-name' });
  const submit = element('button', { type: 'submit', class: 'pay' }, submitLabel);
  const form = element('form', { novalidate: '', 'aria-label': words.cardDetails }, number.node, element('div', { class: 'pair' }, expiry.node, cvc.node), name.node, submit);
  main.append(element('section', { 'aria-label': words.payment }, paypal, element('p', { class: 'or' }, words.orCard), form, status));

  let selected = false;
  form.addEventListener('input', () => {
    if (selected) return;
    selected = true;
    post('checkout.payment.selected', { data });
  });

  async function pay(body: Record<string, unknown>, method: 'card' | 'paypal') {
    submit.disabled = true;
    paypal.disabled = true;
    status.textContent = words.processing;
    post('checkout.payment.initiated', { data: { ...data, payment: { method_details: { type: method, card: null } } } });
    try {
      const completed = await api('pay', { transactionId, ...body });
      status.textContent = words.paid;
      form.hidden = true;
      paypal.hidden = true;
      post('checkout.completed', { data: completed });
    } catch (error) {
      const failure = error as { code: string; detail: string };
      status.textContent = failure.code === 'payment_declined' ? words.declined : words.failed(failure.detail);
      // A plain object: postMessage's structured clone keeps an Error's message only, not its code and detail.
      post(failure.code === 'payment_declined' ? 'checkout.payment.failed' : 'checkout.payment.error', { data, error: { code: failure.code, detail: failure.detail } });
      submit.disabled = false;
      paypal.disabled = false;
    }
    reportHeight();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const digits = number.input.value.replace(/\s/g, '');
    const problems: [typeof number, string | null][] = [
      [number, cardNumberValid(digits) ? null : words.badNumber],
      [expiry, expiryValid(expiry.input.value) ? null : words.badExpiry],
      [cvc, /^\d{3,4}$/.test(cvc.input.value.trim()) ? null : words.badCode],
      [name, name.input.value.trim() ? null : words.badName],
    ];
    for (const [entry, problem] of problems) {
      entry.error.textContent = problem ?? '';
      entry.input.setAttribute('aria-invalid', problem ? 'true' : 'false');
    }
    const first = problems.find(([, problem]) => problem);
    if (first) {
      first[0].input.focus();
      reportHeight();
      return;
    }
    void pay({ cardNumber: digits, expiry: expiry.input.value.trim(), securityCode: cvc.input.value.trim(), name: name.input.value.trim() }, 'card');
  });
  paypal.addEventListener('click', () => void pay({ method: 'paypal' }, 'paypal'));

  document.body.replaceChildren(main);
  reportHeight();
  post('ready', { data });
}

const style = element(
  'style',
  {},
  `:root{color-scheme:${dark ? 'dark' : 'light'};font:15px/1.4 system-ui,sans-serif}
body{margin:0;padding:16px;background:${dark ? '#121212' : '#fff'};color:${dark ? '#eee' : '#111'};min-width:0;overflow-wrap:anywhere}
.row{display:flex;justify-content:space-between;padding:4px 0}.total{font-weight:600;border-top:1px solid #8886;margin-top:4px;padding-top:8px}
.note,.or{color:#888;font-size:13px}.title{font-size:20px;margin:0 0 4px}.field{display:flex;flex-direction:column;margin:8px 0;flex:1;min-width:0}.pair{display:flex;gap:12px}
label{font-size:13px;margin-bottom:4px}*,*::before,*::after{box-sizing:border-box}input{width:100%;min-width:0;padding:10px;border-radius:6px;border:1px solid #8889;background:transparent;color:inherit;font:inherit}
input[aria-invalid=true]{border-color:#e53935}.error{color:#ef5350;font-size:12px;min-height:1em}
button{width:100%;padding:12px;border:none;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
.pay{background:#1976d2;color:#fff;margin-top:8px}.paypal{background:#ffc439;color:#111}button:disabled{opacity:.6}.status{margin-top:12px}`,
);
document.head.append(style);

api('transaction', { transactionId })
  .then(render)
  .catch((error: { code: string; detail: string }) => {
    document.body.replaceChildren(element('p', { role: 'alert' }, words.cannotShow(error.detail)));
    post('checkout.error', { error: { code: error.code, detail: error.detail } });
  });
