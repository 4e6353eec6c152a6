import { retryOverdue } from './dunning.js';
import { renew, touch } from './lifecycle.js';
import { pausesDue } from './pauses.js';
import { itemsOf, type PurchaseState } from './purchase-state.js';

/**
 * What the clock passing has made due, subscription by subscription and in the order it fell due:
 * cancellations scheduled for a period's end, pauses beginning and ending (./pauses.ts), an overdue
 * renewal's retries (./dunning.ts), and renewals (./lifecycle.ts). Called on every request to the
 * stand-in and by its timer, so a clock moved weeks ahead catches up at once.
 */
export function tick(state: PurchaseState) {
  const at = state.clock.now().getTime();
  let changed = false;
  for (const sub of state.subscriptions) {
    for (let guard = 0; guard < 100; guard += 1) {
      const change = sub.scheduled_change as { action: string; effective_at: string } | null;
      if (change?.action === 'cancel' && new Date(change.effective_at).getTime() <= at && sub.status !== 'canceled') {
        sub.status = 'canceled';
        sub.canceled_at = change.effective_at;
        sub.scheduled_change = null;
        sub.next_billed_at = null;
        for (const item of itemsOf(sub)) item.status = 'inactive';
        touch(state, sub);
        state.emit('subscription.canceled', sub);
        changed = true;
        break;
      }
      if (pausesDue(state, sub) || retryOverdue(state, sub)) {
        changed = true;
        continue;
      }
      const due = sub.next_billed_at ? new Date(sub.next_billed_at as string).getTime() : Number.POSITIVE_INFINITY;
      if ((sub.status !== 'active' && sub.status !== 'trialing') || due > at) break;
      renew(state, sub);
      changed = true;
    }
  }
  if (changed) state.save();
}
