// The page.evaluate callbacks and the hook below run in the browser.
/// <reference lib="dom" />
import { rmSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { startPortal } from '../scripts/portal-process.js';
import { viteBuild } from '../scripts/spa-build.js';
import { mainThreadOf, returningPhoneTab, showTwice, type TraceEvent } from './page-load.js';

/**
 * What React renders in each commit of a page load, and which update asked for it: loads one address (as an
 * admin with TRACE_SESSION=1) in the system Chromium at Lighthouse's 4x CPU slowdown, from a build with
 * React's profiling renderer (bench/profiling.vite.config.ts), and prints each commit with its priority
 * (`sync` is a render React does at once, in the task that asked for it), its render time and the components
 * that rendered in it, then each main-thread task of 20 ms or more with the commits inside it. A synchronous
 * update names the component it was set on. Usage:
 *   TRACE_SESSION=1 npm run bench:commits -- /account/profile      (COMMITS_RUNS=3 for three loads)
 * The profiling build goes into dist/ and is removed afterwards, so the next build is the production one
 * again: do not run it beside `npm test` or another bench script.
 */
interface Commit {
  at: number;
  priority: number;
  render: number;
  rendered: [string, number][];
}
interface SyncUpdate {
  /** The number of commits before it: one set in a commit's effects comes before that commit is counted. */
  commits: number;
  component: string;
}
declare global {
  interface Window {
    shapelabCommits: Commit[];
    shapelabSyncUpdates: SyncUpdate[];
  }
}

/** React DevTools' global hook, as far as the profiling renderer calls it. */
const HOOK = `(() => {
  const commits = (window.shapelabCommits = []);
  const syncUpdates = (window.shapelabSyncUpdates = []);
  const nameOf = (fiber) => {
    const type = fiber.type;
    if (!type || typeof type === 'string') return null;
    return type.displayName || type.name || (type.render && (type.render.displayName || type.render.name)) || (type.type && (type.type.displayName || type.type.name)) || 'anonymous';
  };
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const PERFORMED_WORK = 1;
  const SYNC_LANE = 1;
  let previous = new WeakSet();
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    isDisabled: false,
    inject(renderer) {
      this.renderers.set(1, renderer);
      const note = (fiber, lane) => { if (lane === SYNC_LANE) syncUpdates.push({ commits: commits.length, component: nameOf(fiber) || 'anonymous' }); };
      renderer.injectProfilingHooks?.({ markStateUpdateScheduled: note, markForceUpdateScheduled: note });
      return 1;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root, priority) {
      // A fiber rendered in this commit when it is new since the last one (React works on a copy of the fibers
      // it renders) and did work; a part React skipped keeps its old fiber and its old flags.
      const current = new WeakSet();
      const rendered = new Map();
      const stack = [root.current];
      while (stack.length > 0) {
        const fiber = stack.pop();
        current.add(fiber);
        if (COMPONENT_TAGS.has(fiber.tag) && fiber.flags & PERFORMED_WORK && !previous.has(fiber)) {
          const name = nameOf(fiber);
          rendered.set(name, (rendered.get(name) || 0) + (fiber.selfBaseDuration || 0));
        }
        if (fiber.child) stack.push(fiber.child);
        if (fiber.sibling && fiber !== root.current) stack.push(fiber.sibling);
      }
      previous = current;
      const render = root.current.actualDuration || 0;
      performance.mark('commit ' + commits.length);
      commits.push({ at: performance.now(), priority, render, rendered: [...rendered].sort((a, b) => b[1] - a[1]).slice(0, 8) });
    },
  };
})();`;

/** Scheduler priorities, as the hook receives them. */
const PRIORITY: Record<number, string> = { 1: 'sync', 2: 'user-blocking', 3: 'normal', 4: 'low', 5: 'idle' };

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');

function buildProfiling() {
  process.stdout.write('Building the web app with React profiling into dist/ (removed afterwards)...\n');
  rmSync(dist, { recursive: true, force: true });
  viteBuild(['--config', 'bench/profiling.vite.config.ts', '--logLevel', 'warn']);
}

const ms = (value: number) => value.toFixed(1);

async function commitsOf(pagePath: string, signedIn: boolean, runs: number) {
  buildProfiling();
  const portal = await startPortal();
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
  try {
    const tab = await returningPhoneTab(browser, portal, signedIn);
    await tab.evaluateOnNewDocument(HOOK);
    // Compiled and cached by V8 first, as before Lighthouse's runs (bench/page-load.ts).
    await showTwice(tab, `${portal.url}${pagePath}`);
    await tab.goto('about:blank');
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    for (let run = 1; run <= runs; run++) {
      await tab.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
      await tab.goto(`${portal.url}${pagePath}`, { waitUntil: 'load' });
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const buffer = await tab.tracing.stop();
      const commits = await tab.evaluate(() => window.shapelabCommits);
      const syncUpdates = await tab.evaluate(() => window.shapelabSyncUpdates);
      process.stdout.write(`\nload ${run} of ${pagePath} (4x CPU; times from the navigation, render times in ms):\n`);
      for (const [index, commit] of commits.entries()) {
        const askedBy = commit.priority === 1 ? syncUpdates.filter((update) => update.commits === index || update.commits === index - 1).map((update) => update.component) : [];
        const rendered = commit.rendered.filter(([, time]) => time >= 0.5).map(([name, time]) => `${name} ${ms(time)}`);
        process.stdout.write(
          `  commit ${index} @${Math.round(commit.at)} ${PRIORITY[commit.priority] ?? commit.priority}${askedBy.length > 0 ? ` (set on ${[...new Set(askedBy)].join(', ')})` : ''}: render ${ms(commit.render)}; ${rendered.join(', ')}\n`,
        );
      }
      if (!buffer) continue;
      const events = (JSON.parse(Buffer.from(buffer).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
      const thread = mainThreadOf(events, `${portal.url}${pagePath}`, 20);
      if (!thread) continue;
      const marks = events.filter((event) => event.pid === thread.navigation.pid && event.name.startsWith('commit '));
      process.stdout.write('  tasks of 20 ms or more (* after the first contentful paint), with the commits in them:\n');
      for (const task of thread.tasks) {
        const end = task.ts + (task.dur ?? 0);
        const inside = marks.filter((mark) => mark.ts >= task.ts && mark.ts <= end).map((mark) => mark.name.replace('commit ', ''));
        process.stdout.write(`  ${task.ts > thread.paint ? '*' : ' '} @${Math.round((task.ts - thread.navigation.ts) / 1000)} ${Math.round((task.dur ?? 0) / 1000)} ms${inside.length > 0 ? `: commits ${inside.join(', ')}` : ''}\n`);
      }
    }
  } finally {
    await browser.close();
    await portal.stop();
    // The next build is the production one: scripts/spa-build.ts builds again when dist/ is missing.
    rmSync(dist, { recursive: true, force: true });
  }
}

const pagePath = process.argv[2] ?? '/account/profile';
await commitsOf(pagePath, process.env.TRACE_SESSION === '1', Number(process.env.COMMITS_RUNS ?? 1));
