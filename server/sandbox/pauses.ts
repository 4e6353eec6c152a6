import { invalid, SandboxError } from './http.js';
import { outstanding, renew, touch } from './lifecycle.js';
import { itemsOf, nowOf, periodOf, type PurchaseState, type SandboxRecord } from './purchase-state.js';

/**
 * Paddle's pause at the stand-in (issue 46 item 7): `POST /subscriptions/{id}/pause` pauses at the end of
 * the billing period (a scheduled change; `effective_from: immediately` pauses now), until `resume_at` or
 * until resumed; a paused subscription is billed nothing. `POST /subscriptions/{id}/resume` ends the pause
 * now (or schedules its end): as Paddle's default `start_new_billing_period`, a new period starts then and
 * is charged at once (past due, and retried, when the card declines). Pausing cancels an overdue renewal's
 * transaction, as Paddle does, so two periods are never billed for one.
 */

const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

function pauseNow(state: PurchaseState, sub: SandboxRecord, at: string, resumeAt: string | null): void {
  const unpaid = outstanding(state, sub);
  if (unpaid) {
    unpaid.status = 'canceled';
    state.emit('transaction.canceled', unpaid);
  }
  sub.status = 'paused';
  sub.paused_at = at;
  sub.next_billed_at = null;
  sub.scheduled_change = resumeAt ? { action: 'resume', effective_at: resumeAt, resume_at: null } : null;
  for (const item of itemsOf(sub)) item.status = 'inactive';
  touch(state, sub);
  state.emit('subscription.paused', sub);
}

/** `POST /subscriptions/{id}/pause`. */
export function pauseSubscription(state: PurchaseState, sub: SandboxRecord, body: Record<string, unknown>): SandboxRecord {
  if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
  if (sub.status === 'paused') throw new SandboxError(400, 'subscription_is_paused', 'The subscription is paused already');
  if (sub.scheduled_change) throw new SandboxError(400, 'subscription_locked_pending_changes', 'The subscription has a scheduled change');
  const resumeAt = body.resume_at === undefined || body.resume_at === null ? null : body.resume_at;
  if (resumeAt !== null && !isTime(resumeAt)) throw invalid('resume_at: must be an RFC 3339 datetime');
  if (body.effective_from === 'immediately') {
    if (resumeAt && Date.parse(resumeAt) <= state.clock.now().getTime()) throw invalid('resume_at: must be in the future');
    pauseNow(state, sub, nowOf(state), resumeAt ? new Date(resumeAt).toISOString() : null);
  } else {
    const startsAt = periodOf(sub).ends_at;
    if (resumeAt && Date.parse(resumeAt) <= Date.parse(startsAt)) throw invalid('resume_at: must be after the pause begins');
    sub.scheduled_change = { action: 'pause', effective_at: startsAt, resume_at: resumeAt ? new Date(resumeAt).toISOString() : null };
    sub.next_billed_at = null;
    touch(state, sub);
    state.emit('subscription.updated', sub);
  }
  state.save();
  return sub;
}

/** A paused subscription active again from `at`: a new billing period, charged now (./lifecycle.ts `renew`). */
function resumeNow(state: PurchaseState, sub: SandboxRecord, at: string): void {
  sub.status = 'active';
  sub.paused_at = null;
  sub.scheduled_change = null;
  sub.next_billed_at = at;
  sub.current_billing_period = { starts_at: periodOf(sub).starts_at, ends_at: at };
  for (const item of itemsOf(sub)) item.status = 'active';
  touch(state, sub);
  state.emit('subscription.resumed', sub);
  renew(state, sub);
}

/** `POST /subscriptions/{id}/resume`: now (`effective_from: immediately`) or at a later time. */
export function resumeSubscription(state: PurchaseState, sub: SandboxRecord, body: Record<string, unknown>): SandboxRecord {
  if (sub.status !== 'paused') throw new SandboxError(400, 'subscription_is_not_paused', 'Only a paused subscription can be resumed');
  if (body.effective_from === 'immediately') {
    resumeNow(state, sub, nowOf(state));
  } else if (isTime(body.effective_from) && Date.parse(body.effective_from) > state.clock.now().getTime()) {
    sub.scheduled_change = { action: 'resume', effective_at: new Date(body.effective_from).toISOString(), resume_at: null };
    touch(state, sub);
    state.emit('subscription.updated', sub);
  } else {
    throw invalid('effective_from: immediately, or a time in the future');
  }
  state.save();
  return sub;
}

/** What the clock has made due of a pause: a scheduled one begins, a running one ends at its resume date. Whether anything changed. */
export function pausesDue(state: PurchaseState, sub: SandboxRecord): boolean {
  const change = sub.scheduled_change as { action: string; effective_at: string; resume_at?: string | null } | null;
  const now = state.clock.now().getTime();
  if (!change || Date.parse(change.effective_at) > now) return false;
  if (change.action === 'pause' && (sub.status === 'active' || sub.status === 'past_due')) {
    pauseNow(state, sub, change.effective_at, change.resume_at ?? null);
    // A resume date the clock has passed too is due at once.
    pausesDue(state, sub);
    return true;
  }
  if (change.action === 'resume' && sub.status === 'paused') {
    resumeNow(state, sub, change.effective_at);
    return true;
  }
  return false;
}
