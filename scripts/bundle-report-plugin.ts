import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The npm package a module comes from, or 'app' for the portal's own code. */
export function packageOf(moduleId: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleId.replaceAll('\\', '/'));
  return match?.[1] ?? 'app';
}

export type ModulesReport = Record<string, Record<string, number>>;
export const MODULES_REPORT = '.vite/modules.json';
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Two build steps for production serving and for the budgets:
 * - `.vite/modules.json`: for every chunk, the rendered bytes of each npm package in it, so a budget test
 *   can name what made a route heavy and prove what a public page never loads;
 * - `.gz` and `.br` copies of every text asset, served by @fastify/static with `preCompressed`.
 */
export function bundleReport(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shapelab-bundle-report',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const report: ModulesReport = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const packages: Record<string, number> = {};
        for (const [id, info] of Object.entries(output.modules)) {
          const name = packageOf(id);
          packages[name] = (packages[name] ?? 0) + info.renderedLength;
        }
        report[output.fileName] = packages;
      }
      this.emitFile({ type: 'asset', fileName: MODULES_REPORT, source: JSON.stringify(report, null, 1) });
    },
    writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle), 'index.html'].filter((file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite/'));
      for (const file of new Set(files)) {
        const full = path.join(outDir, file);
        const content = readFileSync(full);
        writeFileSync(`${full}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${full}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}
