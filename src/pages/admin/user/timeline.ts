import type { TFunction } from 'i18next';
import type { ActivityEntry } from '../../../../contract/activity.js';
import { formatDateTime, formatPrice } from '../../../format/index.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const strings = (value: unknown): string[] | null => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : null);

const K = 'adminUser:timeline.events';

/**
 * One timeline entry as a sentence in the reader's language (issue 21): what happened, with what the
 * entry's details name (an amount, a device, a coupon, roles before and after). An entry whose details
 * lack a value reads its plain sentence, never "undefined".
 */
export function describeEntry(t: TFunction, entry: ActivityEntry, language: string): string {
  const d = entry.details;
  const money = () => {
    const amount = number(d.amount);
    const currency = text(d.currencyCode);
    return amount !== null && currency ? formatPrice(amount, currency, language) : null;
  };
  const method = (value: unknown) => t(`adminUser:methods.${text(value) ?? 'unknown'}`, { defaultValue: text(value) ?? '' });
  const roles = (value: unknown) => strings(value)?.map((role) => t(`pages.users.roles.${role}`, { defaultValue: role })).join(', ') ?? null;
  switch (entry.kind) {
    case 'account.registered':
      return text(d.method) ? t(`${K}.registeredWith`, { method: method(d.method) }) : t(`${K}.registered`);
    case 'email.verified':
      return t(`${K}.emailVerified`);
    case 'verification.resent':
      return t(`${K}.verificationResent`);
    case 'email.changed':
      return text(d.from) && text(d.to) ? t(`${K}.emailChangedFromTo`, { from: d.from, to: d.to }) : t(`${K}.emailChanged`);
    case 'session.signed_in': {
      const client = [text(d.browser), text(d.os)].filter(Boolean).join(', ');
      return t(client ? `${K}.signedInOn` : `${K}.signedIn`, { method: method(d.method), client });
    }
    case 'sessions.ended':
      // Issue 44: a reused offline token ends its session, which the owner did not ask for.
      if (d.reason === 'token-reused') return t(`${K}.sessionsEndedTokenReused`);
      return t(d.reason === 'ended-by-admin' ? `${K}.sessionsEndedByAdmin` : `${K}.sessionsEnded`, { count: number(d.count) ?? 1 });
    case 'password.changed':
      return t(d.first === true ? `${K}.passwordSet` : `${K}.passwordChanged`);
    case 'password.reset':
      return t(`${K}.passwordReset`);
    case 'purchase.completed': {
      const amount = money();
      if (number(d.amount) === 0) return t(`${K}.purchaseFree`);
      if (!amount) return t(`${K}.purchase`);
      return t(text(d.subscriptionId) ? `${K}.purchaseSubscription` : `${K}.purchaseAmount`, { amount });
    }
    case 'purchase.refunded': {
      const amount = money();
      if (text(d.release)) return t(`${K}.licenceReturned`, { release: d.release, amount: amount ?? '' });
      return amount ? t(`${K}.refundedAmount`, { amount }) : t(`${K}.refunded`);
    }
    case 'purchase.duplicate_undone':
      return t(`${K}.duplicateUndone`);
    case 'subscription.cancelled':
      if (d.refund === true) return t(`${K}.cancelledWithRefund`);
      return text(d.endsAt) ? t(`${K}.cancelledUntil`, { date: formatDateTime(String(d.endsAt), language) }) : t(`${K}.cancelled`);
    case 'subscription.resumed':
      return t(`${K}.resumed`);
    case 'device.activated':
      return t(`${K}.deviceActivated`, { name: text(d.name) ?? '', computerId: text(d.computerId) ?? '' });
    case 'device.released':
      return t(`${K}.deviceReleased`, { name: text(d.name) ?? '', computerId: text(d.computerId) ?? '' });
    case 'coupon.redeemed': {
      const code = text(d.code) ?? '';
      if (d.kind === 'licence' && text(d.release)) return t(`${K}.couponLicence`, { code, release: d.release });
      if (d.kind === 'access' && number(d.days) !== null) return t(`${K}.couponAccess`, { code, count: number(d.days) });
      if (d.kind === 'lite') return t(`${K}.couponLite`, { code });
      return t(`${K}.coupon`, { code });
    }
    case 'roles.changed': {
      const from = roles(d.from);
      const to = roles(d.to);
      return from && to ? t('pages.users.audit.rolesChanged', { from, to }) : t('pages.users.audit.rolesChangedPlain');
    }
    case 'account.deleted':
      return t('pages.users.audit.deletedBySelf');
    case 'user.deleted':
      return t('pages.users.audit.deleted');
    case 'two_factor.enabled':
      return t(`${K}.twoFactorEnabled`);
    case 'two_factor.disabled':
      return t(`${K}.twoFactorDisabled`);
    case 'recovery_codes.renewed':
      return t(`${K}.recoveryCodesRenewed`);
    case 'passkey.added':
      return t(`${K}.passkeyAdded`, { name: text(d.name) ?? '' });
    case 'passkey.removed':
      return t(`${K}.passkeyRemoved`, { name: text(d.name) ?? '' });
    case 'two_factor.reset':
      return t('pages.users.audit.twoFactorReset');
    // Issue 46: failed renewals, pauses and chargebacks.
    case 'payment.failed': {
      const amount = money() ?? '';
      return text(d.endsAt) ? t(`${K}.paymentFailedUntil`, { amount, date: formatDateTime(String(d.endsAt), language) }) : t(`${K}.paymentFailed`, { amount });
    }
    case 'payment.recovered':
      return t(`${K}.paymentRecovered`, { amount: money() ?? '' });
    case 'payment.lost':
      return t(`${K}.paymentLost`);
    case 'subscription.paused': {
      const from = text(d.startsAt) ? formatDateTime(String(d.startsAt), language) : '';
      return text(d.resumesAt) ? t(`${K}.pausedUntil`, { from, until: formatDateTime(String(d.resumesAt), language) }) : t(`${K}.paused`, { from });
    }
    case 'subscription.pause_ended':
      return t(d.scheduled === true ? `${K}.pauseWithdrawn` : `${K}.pauseEnded`);
    case 'purchase.chargeback': {
      const amount = money() ?? '';
      const releases = strings(d.releases) ?? [];
      if (text(d.subscriptionId)) return t(`${K}.chargebackSubscription`, { amount });
      return releases.length > 0 ? t(`${K}.chargebackLicence`, { amount, releases: releases.join(', ') }) : t(`${K}.chargeback`, { amount });
    }
    case 'purchase.chargeback_reversed':
      return t(`${K}.chargebackReversed`);
    case 'account.viewed':
      // Issue 47: a staff member (the entry's actor) saw the account as its owner does, read-only.
      return text(d.until) ? t('pages.users.audit.viewedUntil', { date: formatDateTime(String(d.until), language) }) : t('pages.users.audit.viewed');
  }
}
