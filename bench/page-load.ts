// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import type { Browser, Page } from 'puppeteer-core';
import type { PortalProcess } from '../scripts/portal-process.js';

/** The fields of a Chromium trace event that bench/trace.ts and bench/profile.ts read. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event, where the trace records it. */
  tdur?: number;
  args?: { name?: string; data?: { url?: string; isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
}

/** A load's navigation in its trace: its renderer's pid and its start time. */
export function navigationOf(events: TraceEvent[], address: string): TraceEvent | undefined {
  return events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === address);
}

/** What a task listing names inside a task: scripts, timers, events, style, layout, paint, garbage collection. */
const INSIDE = new Set(['ParseHTML', 'EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'RunMicrotasks', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC']);

/**
 * A load's renderer main thread in its trace (bench/trace.ts, bench/profile.ts, bench/lighthouse.ts): the
 * navigation, the observed first contentful paint (Infinity when there is none), the thread's complete events
 * from the navigation on and, of those, its tasks of `minTaskMs` or more in order.
 */
export function mainThreadOf(events: TraceEvent[], address: string, minTaskMs: number) {
  const navigation = navigationOf(events, address);
  if (!navigation) return undefined;
  const { pid } = navigation;
  const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  const paint = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === pid)?.ts ?? Infinity;
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= navigation.ts);
  const tasks = main.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= minTaskMs * 1000).sort((a, b) => a.ts - b.ts);
  return { navigation, paint, main, tasks };
}

/** What ran inside `task` for `minMs` or more, as `FunctionCall(app-….js) 12`. */
export function insideOf(main: TraceEvent[], task: TraceEvent, minMs: number): string[] {
  const end = task.ts + (task.dur ?? 0);
  return main
    .filter((e) => INSIDE.has(e.name) && e.ts >= task.ts && e.ts < end && (e.dur ?? 0) >= minMs * 1000)
    .map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop() ?? ''})` : ''} ${Math.round((e.dur ?? 0) / 1000)}`);
}

/** The admin's access token, from the portal's admin sign-in (bench/lighthouse.ts and the phone tab below). */
export async function adminToken(portal: PortalProcess): Promise<string> {
  const response = await fetch(`${portal.url}/api/auth/admin-login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: portal.adminEmail, password: portal.adminPassword }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Makes `tab` a returning browser: the app runs once on the terms page with `token` in storage (or none),
 * sets its session-hint cookie and leaves its code cached. The tab stays on the terms page.
 */
export async function runAppOnce(tab: Page, portal: PortalProcess, token: string): Promise<void> {
  await tab.goto(`${portal.url}/terms`);
  await tab.evaluate((value) => (value ? localStorage.setItem('token', value) : localStorage.clear()), token);
  await tab.reload();
}

/**
 * Shows `address` in `tab` twice, each time until its heading is shown and two seconds more, as a customer
 * coming back has seen it: what the page draws after its heading (sections, their chunks) has time to arrive,
 * and V8, which keeps a script's compiled code the second time the script runs and uses it from the third,
 * writes its code cache while the page is idle. A load measured after this runs the code a returning visit
 * runs, not the compiler (bench/README.md, "V8's code cache before every run").
 */
export async function showTwice(tab: Page, address: string): Promise<void> {
  for (let showing = 0; showing < 2; showing++) {
    await tab.goto(address);
    await tab.waitForSelector('h1');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/**
 * A tab of Lighthouse's phone (412 x 823 at 1.75) as a returning browser (runAppOnce), with the admin's
 * session when `signedIn`. Shared by bench/trace.ts and bench/profile.ts.
 */
export async function returningPhoneTab(browser: Browser, portal: PortalProcess, signedIn: boolean): Promise<Page> {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
  await runAppOnce(tab, portal, signedIn ? await adminToken(portal) : '');
  return tab;
}
