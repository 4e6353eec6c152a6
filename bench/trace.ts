// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';
import { startPortal } from '../scripts/portal-process.js';
import { insideOf, mainThreadOf, navigationOf, returningPhoneTab, showTwice, type TraceEvent } from './page-load.js';

/**
 * Where a page load's main-thread time goes: loads one address of the production build (as an admin with
 * TRACE_SESSION=1) in the system Chromium at Lighthouse's 4x CPU slowdown, and prints every task of 10 ms or
 * more with what ran inside it (script evaluation, function calls, timers, layout), marking those after the
 * first contentful paint, whose excess over 50 ms is total blocking time. Usage:
 *   npm run bench:trace -- /account/profile        (TRACE_SESSION=1 for a signed-in screen)
 * TRACE_RUNS=7 loads the page seven times instead and prints each load's main-thread busy time (all its tasks,
 * summed) and their median: a figure that moves less from run to run than Lighthouse's blocking time.
 */

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
  const thread = mainThreadOf(events, address, 10);
  if (!thread) throw new Error('no navigation in the trace');
  const { navigation, paint: fcp, main, tasks } = thread;
  const ms = (micros: number) => Math.round(micros / 1000);
  const busy = ms(main.filter((e) => e.name === 'RunTask').reduce((sum, task) => sum + (task.dur ?? 0), 0));
  if (!detailed) return busy;
  process.stdout.write(`first contentful paint at ${fcp === Infinity ? '?' : ms(fcp - navigation.ts)} ms (4x CPU, no network throttling)\n`);
  let blocking = 0;
  for (const task of tasks) {
    const duration = task.dur ?? 0;
    const afterPaint = task.ts > fcp;
    if (afterPaint) blocking += Math.max(0, duration - 50_000);
    process.stdout.write(`${afterPaint ? '*' : ' '} @${ms(task.ts - navigation.ts)} ms  ${ms(duration)} ms  ${insideOf(main, task, 3).join(', ')}\n`);
  }
  process.stdout.write(`blocking time after the first paint (tasks marked *, each less 50 ms): ${ms(blocking)} ms\n`);
  process.stdout.write(`main-thread busy time: ${busy} ms\n`);
  return busy;
}

const pagePath = process.argv[2] ?? '/login';
const runs = Math.max(1, Number(process.env.TRACE_RUNS ?? 1));
await trace(pagePath, process.env.TRACE_SESSION === '1');
