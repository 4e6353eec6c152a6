import type { IPriceResponse } from '@paddle/paddle-node-sdk';
import { PAYMENT_RETRY_DAYS } from '../../contract/subscription.js';
import { SandboxError } from './http.js';
import { charge, complete, outstanding, paymentAttempt, savedCard, subscriptionItem, touch } from './lifecycle.js';
import { itemsOf, nowOf, transactionOf, type Period, type PurchaseState, type SandboxRecord, type Totals } from './purchase-state.js';
import { paddleId } from './state.js';

/**
 * Paddle's dunning at the stand-in (issue 46 item 5): a renewal the card declined is past due, and the
 * saved card is tried again PAYMENT_RETRY_DAYS after the first failure (1, 3, 5 and 7 days), each try at
 * its moment however far the clock jumps. A try that pays settles the transaction and the subscription is
 * active again on the period it was renewing; one that fails is another `transaction.payment_failed`;
 * when the last fails Paddle gives up: the transaction and the subscription are cancelled (Paddle's
 * default without Retain's pause). A new card (the payment method update) settles it at once
 * (./lifecycle.ts). The stand-in's chargebacks are here too: they come from the bank, not the customer.
 */

const DAY_MS = 86_400_000;

/** When each failed attempt of a transaction was made. */
function failures(txn: SandboxRecord): number[] {
  return (txn.payments as { status: string; created_at: string }[]).filter((payment) => payment.status === 'error').map((payment) => Date.parse(payment.created_at));
}

/**
 * The tries of `sub`'s overdue renewal that the clock has passed, in order: each pays or fails at its own
 * moment; the last failing one ends the subscription. Whether anything changed.
 */
export function retryOverdue(state: PurchaseState, sub: SandboxRecord): boolean {
  if (sub.status !== 'past_due') return false;
  const txn = outstanding(state, sub);
  if (!txn) return false;
  const now = state.clock.now().getTime();
  let changed = false;
  for (;;) {
    const made = failures(txn);
    const first = Math.min(...made);
    // Attempt 1 was the renewal itself; retry k is due PAYMENT_RETRY_DAYS[k - 1] days after it.
    const retry = PAYMENT_RETRY_DAYS[made.length - 1];
    if (retry === undefined) return changed;
    const due = first + retry * DAY_MS;
    if (due > now) return changed;
    changed = true;
    const at = new Date(due).toISOString();
    const [card, expiry] = savedCard(state, sub.id);
    if (charge(state, sub.id)) {
      complete(state, txn, 'card', card, expiry);
      const period = txn.billing_period as Period;
      sub.status = 'active';
      sub.current_billing_period = period;
      sub.next_billed_at = period.ends_at;
      sub.items = [subscriptionItem(state, itemsOf(sub)[0]?.price as IPriceResponse, 'active', period, null, nowOf(state))];
      touch(state, sub);
      state.emit('subscription.updated', sub);
      state.emit('transaction.completed', txn);
      return changed;
    }
    (txn.payments as unknown[]).push(paymentAttempt(state, 'error', 'card', card, expiry, at));
    txn.updated_at = at;
    state.emit('transaction.payment_failed', txn);
    if (PAYMENT_RETRY_DAYS[made.length] === undefined) {
      // The last try failed: Paddle gives up and cancels the subscription and its open transaction.
      txn.status = 'canceled';
      sub.status = 'canceled';
      sub.canceled_at = at;
      sub.next_billed_at = null;
      sub.scheduled_change = null;
      for (const item of itemsOf(sub)) item.status = 'inactive';
      touch(state, sub);
      state.emit('transaction.canceled', txn);
      state.emit('subscription.canceled', sub);
      return changed;
    }
  }
}

/**
 * `POST /sandbox/transactions/{id}/chargeback` (not a Paddle path; the stand-in's control for what a bank
 * does, issue 46 item 9): the customer's bank takes a completed payment back in full. Paddle records it as
 * an adjustment with action `chargeback`, approved, and sends `adjustment.created`. With `reverse`, the
 * bank gives it back after a dispute (`chargeback_reverse`).
 */
export function chargeback(state: PurchaseState, transactionId: string, reverse: boolean): SandboxRecord {
  const txn = transactionOf(state, transactionId);
  const totals = (txn.details as { totals: Totals }).totals;
  if (txn.status !== 'completed' || Number(totals.grand_total) <= 0) {
    throw new SandboxError(400, 'transaction_adjustment_not_allowed', 'Only a completed payment can be charged back');
  }
  const count = (action: string) => state.adjustments.filter((a) => a.transaction_id === txn.id && a.action === action).length;
  const standing = count('chargeback') > count('chargeback_reverse');
  if (reverse ? !standing : standing) throw new SandboxError(400, 'transaction_adjustment_not_allowed', reverse ? 'No chargeback to reverse' : 'The payment was charged back already');
  const created: SandboxRecord = {
    id: paddleId('adj'),
    action: reverse ? 'chargeback_reverse' : 'chargeback',
    type: 'full',
    transaction_id: txn.id,
    subscription_id: txn.subscription_id ?? null,
    customer_id: txn.customer_id,
    reason: reverse ? 'The dispute was decided for the merchant' : 'The cardholder disputed the payment with their bank',
    credit_applied_to_balance: null,
    currency_code: txn.currency_code,
    status: 'approved',
    items: [],
    totals: { subtotal: totals.subtotal, tax: totals.tax, total: totals.grand_total, fee: '0', earnings: '0', currency_code: txn.currency_code },
    payout_totals: null,
    created_at: nowOf(state),
    updated_at: nowOf(state),
  };
  state.adjustments.push(created);
  state.save();
  state.emit('adjustment.created', created);
  return created;
}
