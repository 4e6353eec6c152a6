/**
 * The plain values of contract/jobs.ts (which re-exports them) that the browser needs: zod-free, so the admin
 * jobs page does not build the server's schemas (tests/unit/browser-imports.test.ts).
 */
export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
