import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MEASURED_ROUTES, round, startBenchServer, stopBenchServer, type RouteName } from './api-load.js';

/**
 * Where a signed-in request's time goes: the bench server (bench/api-server.ts) under autocannon's load on
 * one measured route, profiled by V8's sampling profiler through the inspector once warm. Prints, and writes
 * to bench/results/api-profile-<route>.txt, the busy share, self time by package or source file, self and
 * inclusive time of the busiest functions, and a flame graph as text (the call tree, top down, every frame
 * of 1% or more); draws the same flame graph as bench/results/api-profile-<route>.svg (made here, no
 * download). The raw .cpuprofile stays in a temporary folder (printed), for Chromium's DevTools.
 * Usage: npm run bench:api:profile [-- --route me --duration 10 --target bare]
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}
const routeName = (argument('route') ?? 'me') as RouteName;
const duration = Number(argument('duration') ?? 10);
// `--target bare` profiles the route's bare twin instead, to tell what every request costs from what the route adds.
const target = argument('target') === 'bare' ? 'bare' : 'portal';
const label = target === 'bare' ? `${routeName}-bare` : routeName;
const route = MEASURED_ROUTES.find((candidate) => candidate.name === routeName);
if (!route) throw new Error(`--route is one of ${MEASURED_ROUTES.map((candidate) => candidate.name).join(', ')}`);
const root = path.resolve(import.meta.dirname, '..');
/** Frames below this share of the busy time are left out of the text flame graph. */
const TREE_MIN_SHARE = 0.01;

const profileFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-api-profile-')), `${label}.cpuprofile`);
const server = await startBenchServer({ BENCH_PROFILE: profileFile });
let requests = 0;
try {
  await round(server, route, target, 3, 10);
  await fetch(`http://127.0.0.1:${server.port}/bench/profile/start`, { method: 'POST' });
  const measured = await round(server, route, target, duration, 50);
  requests = measured.requestsPerSecond * duration;
  await fetch(`http://127.0.0.1:${server.port}/bench/profile/stop`, { method: 'POST' });
  process.stdout.write(`${route.method} ${target === 'bare' ? route.bare : route.path}: ${measured.requestsPerSecond.toFixed(0)} req/s while profiled (p99 ${measured.p99Ms} ms)\n`);
} finally {
  await stopBenchServer(server);
}

const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;

/** Where a frame's code lives: an npm package, one of ours (its path), Node itself, or V8 (no URL). */
function placeOf(frame: CallFrame): string {
  const { url } = frame;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(V8 built-ins and native)';
  if (url.startsWith('node:')) return 'node: internals';
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged) return packaged[1] as string;
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  return path.relative(root, file);
}
/** A function by name and place; lines only in packages (ours run transpiled by tsx, whose lines are not the source's). */
function nameOf(frame: CallFrame): string {
  const place = placeOf(frame);
  const packaged = frame.url !== '' && !frame.url.startsWith('node:') && frame.url.includes('/node_modules/');
  return `${frame.functionName || '(anonymous)'} ${place}${packaged ? `:${frame.lineNumber + 1}` : ''}`;
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
// Time per sample: the delta to the next one (V8 records the delta before each sample).
const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => {
  const next = profile.timeDeltas[index + 1] ?? 0;
  selfMs.set(id, (selfMs.get(id) ?? 0) + next / 1000);
});
const idleMs = [...selfMs].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
const totalMs = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);
const busyMs = totalMs - idleMs;
const share = (ms: number) => `${((100 * ms) / busyMs).toFixed(1)}%`.padStart(6);

/** Self time summed by a key of the frame, the largest first. */
function selfBy(key: (frame: CallFrame) => string, limit: number): [string, number][] {
  const sums = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    if (frame.functionName === '(idle)') continue;
    sums.set(key(frame), (sums.get(key(frame)) ?? 0) + ms);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

/** Inclusive time of each function: a sample counts once for every distinct function on its stack. */
function inclusiveBy(limit: number): [string, number][] {
  const sums = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    if ((byId.get(id) as ProfileNode).callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      if (frame.functionName === '(root)') continue;
      seen.add(nameOf(frame));
    }
    for (const name of seen) sums.set(name, (sums.get(name) ?? 0) + ms);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

/** The call tree with frames of the same function under the same parent merged (V8 splits them by inlining). */
interface TreeNode {
  name: string;
  totalMs: number;
  selfMs: number;
  children: Map<string, TreeNode>;
}
function treeOf(): TreeNode {
  const top: TreeNode = { name: 'all busy time', totalMs: 0, selfMs: 0, children: new Map() };
  for (const [id, ms] of selfMs) {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      if (frame.functionName !== '(root)') stack.unshift(nameOf(frame));
    }
    if (stack[0]?.startsWith('(idle)')) continue;
    top.totalMs += ms;
    let node = top;
    for (const name of stack) {
      let child = node.children.get(name);
      if (!child) {
        child = { name, totalMs: 0, selfMs: 0, children: new Map() };
        node.children.set(name, child);
      }
      child.totalMs += ms;
      node = child;
    }
    node.selfMs += ms;
  }
  return top;
}

function textTree(node: TreeNode, depth: number, lines: string[]): void {
  lines.push(`${share(node.totalMs)} ${share(node.selfMs)}  ${'  '.repeat(depth)}${node.name}`);
  const children = [...node.children.values()].filter((child) => child.totalMs >= busyMs * TREE_MIN_SHARE).sort((a, b) => b.totalMs - a.totalMs);
  for (const child of children) textTree(child, depth + 1, lines);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A flame graph (callers below, callees above... drawn top down here: the root on top, as DevTools does). */
function svgOf(tree: TreeNode, title: string): string {
  const width = 1400;
  const rowHeight = 17;
  const rects: string[] = [];
  let maxDepth = 0;
  const draw = (node: TreeNode, x: number, depth: number) => {
    const w = (node.totalMs / tree.totalMs) * width;
    if (w < 0.5) return;
    maxDepth = Math.max(maxDepth, depth);
    const place = node.name.split(' ').slice(1).join(' ');
    const hue = place.startsWith('server/') ? 25 : place.startsWith('node:') ? 200 : place.startsWith('(') ? 0 : 50;
    const fill = `hsl(${hue}, 70%, ${60 + ((node.name.length * 7) % 20)}%)`;
    const label = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${depth * rowHeight + 40}" font-size="11" font-family="monospace">${escapeXml(node.name.slice(0, Math.floor(w / 7)))}</text>` : '';
    rects.push(
      `<g><title>${escapeXml(`${node.name}: ${share(node.totalMs).trim()} (self ${share(node.selfMs).trim()})`)}</title><rect x="${x.toFixed(1)}" y="${depth * rowHeight + 28}" width="${w.toFixed(1)}" height="${rowHeight - 1}" fill="${fill}"/>${label}</g>`,
    );
    let childX = x;
    for (const child of [...node.children.values()].sort((a, b) => b.totalMs - a.totalMs)) {
      draw(child, childX, depth + 1);
      childX += (child.totalMs / tree.totalMs) * width;
    }
  };
  draw(tree, 0, 0);
  const height = (maxDepth + 1) * rowHeight + 40;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="#fff"/><text x="4" y="16" font-size="13" font-family="sans-serif">${escapeXml(title)}</text>`,
    ...rects,
    '</svg>',
    '',
  ].join('\n');
}

const tree = treeOf();
const title = `${route.method} ${target === 'bare' ? route.bare : route.path}, ${duration} s at 50 connections: ${(busyMs / 1000).toFixed(2)} s busy of ${(totalMs / 1000).toFixed(2)} s, ${((busyMs * 1000) / Math.max(1, requests)).toFixed(0)} µs busy per request`;
const lines = [
  title,
  '',
  'Self time by package or file (share of busy time):',
  ...selfBy(placeOf, 15).map(([place, ms]) => `${share(ms)}  ${place}`),
  '',
  'Self time by function:',
  ...selfBy(nameOf, 25).map(([name, ms]) => `${share(ms)}  ${name}`),
  '',
  'Inclusive time by function (the function and what it calls):',
  ...inclusiveBy(40).map(([name, ms]) => `${share(ms)}  ${name}`),
  '',
  `Flame graph as text (total, self, frame; frames under ${TREE_MIN_SHARE * 100}% left out):`,
];
textTree(tree, 0, lines);
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, `bench/results/api-profile-${label}.txt`), text);
writeFileSync(path.join(root, `bench/results/api-profile-${label}.svg`), svgOf(tree, title));
process.stdout.write(`\nwritten: bench/results/api-profile-${label}.txt and .svg; the raw profile: ${profileFile}\n`);
