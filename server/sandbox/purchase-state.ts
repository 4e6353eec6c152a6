import type { IPriceResponse } from '@paddle/paddle-node-sdk';
import type { Clock } from '../clock.js';
import { notFound } from './http.js';
import type { SandboxData, SandboxState } from './state.js';

/**
 * What the stand-in's purchases share (./pricing.ts, ./lifecycle.ts, ./purchase-routes.ts): the account's
 * data, the transactions, subscriptions and adjustments kept with it, the card each subscription is
 * charged on, the clock, and where its webhooks go. Entities are kept as Paddle answers them (plain
 * records), so what the API returns and what a webhook carries are the same object.
 */

export type SandboxRecord = Record<string, unknown> & { id: string };
export type EmitEvent = (type: string, data: SandboxRecord) => void;

export type Period = { starts_at: string; ends_at: string };
export type Proration = { rate: string; billing_period: Period };
export type Line = { price: IPriceResponse; quantity: number; proration?: Proration | null };
export type SubscriptionItem = { price: IPriceResponse; quantity: number; [field: string]: unknown };
export type Totals = Record<string, string | null>;
export type CardExpiry = { month: number; year: number };

export interface PurchaseState {
  /** The catalogue, customers, addresses and businesses (./api.ts keeps them). */
  data: SandboxData;
  transactions: SandboxRecord[];
  subscriptions: SandboxRecord[];
  adjustments: SandboxRecord[];
  /** The card each subscription is charged on (the stand-in's stand-in for a stored payment method). */
  cards: Record<string, string>;
  /** The expiry of each subscription's card, as entered at checkout (12/2030 when none was given). */
  cardExpiries: Record<string, CardExpiry>;
  clock: Clock;
  /** Sends a webhook after the answer to the request that caused it (./index.ts). */
  emit: EmitEvent;
  /** Writes the data back, when the stand-in keeps a file. */
  save(): void;
  /** Where invoice PDFs are served (the portal's /paddle-sandbox/invoices outside tests). */
  invoiceBaseUrl: string;
}

/** The purchases kept in the stand-in's data (saved with it), created empty the first time. */
export function purchaseStateOf(sandbox: SandboxState, clock: Clock, emit: EmitEvent, invoiceBaseUrl: string): PurchaseState {
  const data = sandbox.data as SandboxData & {
    transactions?: SandboxRecord[];
    subscriptions?: SandboxRecord[];
    adjustments?: SandboxRecord[];
    cards?: Record<string, string>;
    card_expiries?: Record<string, CardExpiry>;
  };
  data.transactions ??= [];
  data.subscriptions ??= [];
  data.adjustments ??= [];
  data.cards ??= {};
  data.card_expiries ??= {};
  return {
    data,
    transactions: data.transactions,
    subscriptions: data.subscriptions,
    adjustments: data.adjustments,
    cards: data.cards,
    cardExpiries: data.card_expiries,
    clock,
    emit,
    save: () => sandbox.save(),
    invoiceBaseUrl,
  };
}

/** The clock's now as Paddle writes times. */
export const nowOf = (state: PurchaseState): string => state.clock.now().toISOString();

export function transactionOf(state: PurchaseState, id: string): SandboxRecord {
  const found = state.transactions.find((t) => t.id === id);
  if (!found) throw notFound('Transaction');
  return found;
}

export function subscriptionOf(state: PurchaseState, id: string): SandboxRecord {
  const found = state.subscriptions.find((s) => s.id === id);
  if (!found) throw notFound('Subscription');
  return found;
}

export const itemsOf = (sub: SandboxRecord) => sub.items as SubscriptionItem[];
export const periodOf = (sub: SandboxRecord) => sub.current_billing_period as Period;

export function addPeriod(start: Date, interval: string, frequency: number): Date {
  const next = new Date(start.getTime());
  if (interval === 'day') next.setUTCDate(next.getUTCDate() + frequency);
  else if (interval === 'week') next.setUTCDate(next.getUTCDate() + 7 * frequency);
  else if (interval === 'month') next.setUTCMonth(next.getUTCMonth() + frequency);
  else next.setUTCFullYear(next.getUTCFullYear() + frequency);
  return next;
}
