import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../contract/audit-values.js';
import { STAFF_ROLES } from '../../contract/roles.js';
import de from '../../locales/de/admin.json';
import en from '../../locales/en/admin.json';
import { auditFilterQuery, auditUrl, DEFAULT_AUDIT_VIEW, readAuditView, writeAuditView } from '../../src/pages/admin/audit/view.js';

/** Issue 47: the audit log page keeps its filters in the address, and names every action and role in both languages. */
describe('the audit log view in the address', () => {
  it('reads what the address asks for and ignores what the API would refuse', () => {
    const view = readAuditView(new URLSearchParams('actor=sam%40example.com&action=roles.changed&subject=&from=2026-11-01&to=tomorrow&page=3&pageSize=50'));
    expect(view).toEqual({ filters: { actor: 'sam@example.com', action: 'roles.changed', from: '2026-11-01' }, page: 2, pageSize: 50 });
    expect(readAuditView(new URLSearchParams('action=users.hacked&page=0&pageSize=7'))).toEqual(DEFAULT_AUDIT_VIEW);
  });

  it('writes only what differs from the default, keeping other parameters, and reads back the same', () => {
    const view = { filters: { subject: 'ada@example.com', action: 'account.viewed' as const }, page: 1, pageSize: 25 };
    const written = writeAuditView(new URLSearchParams('lang=de&actor=old'), view);
    expect(written.toString()).toBe('lang=de&action=account.viewed&subject=ada%40example.com&page=2');
    expect(readAuditView(written)).toEqual(view);
  });

  it("asks the API for the view's page, and the export for its filters", () => {
    const view = { filters: { actor: 'sam@example.com', to: '2026-11-30' }, page: 2, pageSize: 10 };
    expect(auditUrl(view)).toBe('/admin/audit?actor=sam%40example.com&to=2026-11-30&skip=20&take=10');
    expect(auditFilterQuery(view.filters)).toBe('?actor=sam%40example.com&to=2026-11-30');
    expect(auditFilterQuery({})).toBe('');
  });

  it('names every action and staff role in English and German', () => {
    for (const texts of [en, de]) {
      const actions = texts.pages.audit.actions as Record<string, Record<string, string>>;
      for (const action of AUDIT_ACTIONS) {
        const [area, event] = action.split('.') as [string, string];
        expect(actions[area]?.[event], action).toBeTruthy();
      }
      for (const role of STAFF_ROLES) expect((texts.pages.users.roles as Record<string, string>)[role], role).toBeTruthy();
    }
  });
});
