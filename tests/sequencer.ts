import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first, across every project. Vitest's own order runs the projects one after another
 * (api, e2e, e2e-own-server:*, unit, by name) and, on a clean clone with no cache of earlier runs, keeps
 * each project's files in the order they were found: the browser files that need a server of their own
 * (four to five minutes each in the full suite) started twenty minutes in and made the run's last six
 * minutes (2026-11-26). Starting the longest files first and filling the workers with the short ones
 * (longest-processing-time scheduling) keeps a long file from starting last. On these two cores the run
 * is bound by CPU, so what this saves is the tail, not the total: three runs with it took 22.7, 25.4 and
 * 22.3 minutes against 26.0 without, within this machine's run-to-run spread.
 *
 * The expected seconds come from vitest's cache of the last local run when it has one, else from
 * tests/durations.json (measured in a full run; `npm run test:durations` writes it anew). A file in
 * neither gets its project's typical length.
 */
const recorded: Record<string, number> = JSON.parse(readFileSync(path.join(import.meta.dirname, 'durations.json'), 'utf8')) as Record<string, number>;

const TYPICAL_SECONDS: Record<string, number> = { e2e: 40, api: 5, unit: 1 };

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const expected = (file: TestSpecification): number => {
      const relative = path.relative(this.ctx.config.root, file.moduleId);
      const cached = cache.getFileTestResults(`${file.project.name}:${relative}`)?.duration;
      if (cached !== undefined) return cached / 1000;
      return recorded[relative] ?? TYPICAL_SECONDS[file.project.name.split(/[-:]/)[0] ?? ''] ?? 1;
    };
    return [...files].sort((a, b) => expected(b) - expected(a));
  }
}
