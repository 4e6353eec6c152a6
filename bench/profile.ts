// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { SourceMapConsumer } from 'source-map-js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt, viteBuild } from '../scripts/spa-build.js';
import { startPortal } from '../scripts/portal-process.js';
import { mainThreadOf, returningPhoneTab, showTwice, type TraceEvent } from './page-load.js';

/**
 * Which code a page load's long tasks run: loads one address (as an admin with TRACE_SESSION=1) in the
 * system Chromium at Lighthouse's 4x CPU slowdown with V8's sampling profiler on, and prints each task of
 * 50 ms or more with the packages and functions its samples fell in, then the whole load's time by package.
 * Samples are named through the source maps of a second build of the same sources (`vite build --sourcemap`
 * into a temporary folder: the chunks are byte for byte those served, only the maps are added). Usage:
 *   TRACE_SESSION=1 npm run bench:profile -- /account/profile
 * `(program)` is the browser's own work outside JavaScript (style, layout, parsing, compiling).
 * PROFILE_MIN_MS=25 lowers the threshold of the tasks listed; PROFILE_CPU_RATE=1 profiles without the slowdown;
 * PROFILE_PACKAGE=i18next adds that package's functions over the whole load.
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const root = path.resolve(import.meta.dirname, '..');
// PROFILE_MIN_MS=25 lists the tasks of 25 ms or more (at 4x) instead of only those of 50 ms or more.
const minTaskMs = Number(process.env.PROFILE_MIN_MS ?? 50);
// PROFILE_CPU_RATE=1 loads the page unthrottled, as Lighthouse gathers its trace (it multiplies the tasks by 4 after).
const cpuRate = Number(process.env.PROFILE_CPU_RATE ?? 4);
// PROFILE_PACKAGE=i18next also prints the whole load's time in that package by function.
const onePackage = process.env.PROFILE_PACKAGE;

function buildSourceMaps(): string {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'shapelab-maps-'));
  viteBuild(['--sourcemap', '--outDir', outDir, '--logLevel', 'error']);
  return outDir;
}

/** Names a sampled frame: its npm package (or source file) and its function, through the chunk's source map. */
function namer(mapsDir: string) {
  const maps = new Map<string, SourceMapConsumer | null>();
  const names = new Map<string, { where: string; what: string }>();
  return (frame: CallFrame) => {
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}:${frame.functionName}`;
    let name = names.get(key);
    if (name) return name;
    const file = frame.url.split('/').pop() ?? '';
    if (!frame.url.includes('/assets/') || frame.lineNumber < 0) {
      name = { where: frame.url ? file : `(${frame.functionName.replace(/[()]/g, '') || 'native'})`, what: frame.functionName };
    } else {
      if (!maps.has(file)) {
        const mapFile = path.join(mapsDir, 'assets', `${file}.map`);
        maps.set(file, existsSync(mapFile) ? new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
      }
      const original = maps.get(file)?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
      const source = (original?.source ?? file).replace(/^(\.\.\/)+/, '');
      const inPackage = source.split('node_modules/')[1];
      const parts = (inPackage ?? '').split('/');
      const where = inPackage ? (parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '')) : source.replace(`${root.slice(1)}/`, '');
      name = { where, what: `${original?.name ?? frame.functionName}${original?.line ? `:${original.line}` : ''}` };
    }
    names.set(key, name);
    return name;
  };
}

const top = (totals: Map<string, number>, count: number) =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(', ');

async function profileLoad(pagePath: string, signedIn: boolean) {
  await ensureSpaBuilt();
  const mapsDir = buildSourceMaps();
  const portal = await startPortal();
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
  try {
    // As a returning browser (bench/page-load.ts) that has shown this page twice, as Lighthouse's runs do:
    // after one showing the profiled load was V8's second run of the code, compiling and caching it (the
    // admin users page's longest task 111 to 146 ms at 4x after one showing, 51 ms or less after two, 2026-11-28).
    const tab = await returningPhoneTab(browser, portal, signedIn);
    await showTwice(tab, `${portal.url}${pagePath}`);
    await tab.goto(`${portal.url}/terms`);
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: cpuRate < 4 ? 100 : 200 });
    await tab.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'blink.user_timing'] });
    await cdp.send('Profiler.start');
    await tab.goto(`${portal.url}${pagePath}`, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const buffer = await tab.tracing.stop();
    if (!buffer) throw new Error('Chromium returned no trace');
    const events = (JSON.parse(Buffer.from(buffer).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const address = `${portal.url}${pagePath}`;
    const thread = mainThreadOf(events, address, minTaskMs);
    if (!thread) throw new Error('no navigation in the trace: run it again');
    const { navigation } = thread;
    const tasks = thread.tasks
      .map((task) => ({ start: task.ts, end: task.ts + (task.dur ?? 0), byPackage: new Map<string, number>(), byFunction: new Map<string, number>() }));

    const name = namer(mapsDir);
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const load = new Map<string, number>();
    const loadByFunction = new Map<string, number>();
    let at = profile.startTime;
    profile.samples.forEach((sample, index) => {
      at += profile.timeDeltas[index] ?? 0;
      const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
      const frame = frames.get(sample);
      if (!frame || frame.functionName === '(idle)') return;
      const { where, what } = name(frame);
      load.set(where, (load.get(where) ?? 0) + ms);
      if (where === onePackage) loadByFunction.set(what, (loadByFunction.get(what) ?? 0) + ms);
      const task = tasks.find((t) => at >= t.start && at < t.end);
      if (!task) return;
      task.byPackage.set(where, (task.byPackage.get(where) ?? 0) + ms);
      task.byFunction.set(`${where} ${what}`, (task.byFunction.get(`${where} ${what}`) ?? 0) + ms);
    });
    process.stdout.write(`${pagePath}: tasks of ${minTaskMs} ms or more (${cpuRate}x CPU), with their samples' packages and functions, in ms\n`);
    for (const task of tasks) {
      process.stdout.write(`@${Math.round((task.start - navigation.ts) / 1000)} ms  ${Math.round((task.end - task.start) / 1000)} ms: ${top(task.byPackage, 8)}\n`);
      process.stdout.write(`    ${top(task.byFunction, 6)}\n`);
    }
    process.stdout.write(`\nthe whole load, by package: ${top(load, 25)}\n`);
    if (onePackage) process.stdout.write(`${onePackage}, by function: ${top(loadByFunction, 15)}\n`);
  } finally {
    await browser.close();
    await portal.stop();
    rmSync(mapsDir, { recursive: true, force: true });
  }
}

await profileLoad(process.argv[2] ?? '/login', process.env.TRACE_SESSION === '1');
