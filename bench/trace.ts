// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';
import { startPortal } from '../scripts/portal-process.js';
import { navigationOf, returningPhoneTab, showTwice, type TraceEvent } from './page-load.js';

/**
 * Where a page load's main-thread time goes: loads one address of the production build (as an admin with
 * TRACE_SESSION=1) in the system Chromium at Lighthouse's 4x CPU slowdown, and prints every task of 10 ms or
 * more with what ran inside it (script evaluation, function calls, timers, layout), marking those after the
 * first contentful paint, whose excess over 50 ms is total blocking time. Usage:
 *   npm run bench:trace -- /account/profile        (TRACE_SESSION=1 for a signed-in screen)
 * TRACE_RUNS=7 loads the page seven times instead and prints each load's main-thread busy time (all its tasks,
 * summed) and their median: a figure that moves less from run to run than Lighthouse's blocking time.
 */
const INSIDE = new Set(['EvaluateScript', 'v8.evaluateModule', 'v8.compileModule', 'FunctionCall', 'TimerFire', 'RunMicrotasks', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC', 'ParseHTML']);

async function trace(pagePath: string, signedIn: boolean) {
  await ensureSpaBuilt();
  const portal = await startPortal();
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
  try {
    // A returning visit, as Lighthouse's runs (bench/page-load.ts).
    const tab = await returningPhoneTab(browser, portal, signedIn);
    await showTwice(tab, `${portal.url}${pagePath}`);
    await tab.goto('about:blank');
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const busy: number[] = [];
    // Several loads: a first one, not counted, warms the renderer that the others share.
    const first = runs > 1 ? -1 : 0;
    for (let run = first, missed = 0; run < runs; run++) {
      if (run > first) await tab.goto(`${portal.url}/terms`);
      await tab.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading', 'blink.user_timing'] });
      await tab.goto(`${portal.url}${pagePath}`, { waitUntil: 'load' });
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const buffer = await tab.tracing.stop();
      if (!buffer) throw new Error('Chromium returned no trace');
      const events = (JSON.parse(Buffer.from(buffer).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
      // Now and then the trace misses the navigation of a renderer that started with it: that load is taken again.
      if (!navigationOf(events, `${portal.url}${pagePath}`) && missed++ < 3) {
        run--;
        continue;
      }
      const loadBusy = report(events, `${portal.url}${pagePath}`, runs === 1);
      if (run >= 0) busy.push(loadBusy);
    }
    if (runs > 1) {
      const sorted = [...busy].sort((a, b) => a - b);
      process.stdout.write(`main-thread busy time (4x CPU) of ${runs} loads: ${busy.join(', ')} ms; median ${sorted[Math.floor(runs / 2)]} ms\n`);
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
}

/** Prints the load's tasks (when `detailed`) and returns the main thread's busy time: its tasks, summed, in ms. */
function report(events: TraceEvent[], address: string, detailed: boolean): number {
  const navigation = navigationOf(events, address);
  if (!navigation) throw new Error('no navigation in the trace');
  const { pid } = navigation;
  const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === pid)?.ts ?? Infinity;
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= navigation.ts);
  const ms = (micros: number) => Math.round(micros / 1000);
  const busy = ms(main.filter((e) => e.name === 'RunTask').reduce((sum, task) => sum + (task.dur ?? 0), 0));
  if (!detailed) return busy;
  process.stdout.write(`first contentful paint at ${fcp === Infinity ? '?' : ms(fcp - navigation.ts)} ms (4x CPU, no network throttling)\n`);
  let blocking = 0;
  for (const task of main.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= 10_000).sort((a, b) => a.ts - b.ts)) {
    const duration = task.dur ?? 0;
    const afterPaint = task.ts > fcp;
    if (afterPaint) blocking += Math.max(0, duration - 50_000);
    const inside = main
      .filter((e) => e !== task && e.ts >= task.ts && e.ts < task.ts + duration && (e.dur ?? 0) >= 3000 && INSIDE.has(e.name))
      .map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop() ?? ''})` : ''} ${ms(e.dur ?? 0)}`);
    process.stdout.write(`${afterPaint ? '*' : ' '} @${ms(task.ts - navigation.ts)} ms  ${ms(duration)} ms  ${inside.join(', ')}\n`);
  }
  process.stdout.write(`blocking time after the first paint (tasks marked *, each less 50 ms): ${ms(blocking)} ms\n`);
  process.stdout.write(`main-thread busy time: ${busy} ms\n`);
  return busy;
}

const pagePath = process.argv[2] ?? '/login';
const runs = Math.max(1, Number(process.env.TRACE_RUNS ?? 1));
await trace(pagePath, process.env.TRACE_SESSION === '1');
