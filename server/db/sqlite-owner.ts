import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** Whether a process with this id is running (signal 0 tests without sending). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SQLite means one instance: its event streams and job worker live in the one process. A second server
 * started on the same file is refused with a clear message instead of quietly splitting the events and
 * the limits; a file left by a killed process (its pid gone) is taken over. Returns the release.
 */
export function claimSqliteFile(file: string): () => void {
  const marker = `${file}.owner`;
  let owner: number | null = null;
  try {
    owner = Number(readFileSync(marker, 'utf8').trim()) || null;
  } catch {
    // No marker: nobody owns it.
  }
  if (owner !== null && owner !== process.pid && isRunning(owner)) {
    throw new Error(
      `Another portal process (pid ${owner}) serves ${file}. SQLite means one instance; for several, use PostgreSQL (README, "Running several instances").`,
    );
  }
  writeFileSync(marker, String(process.pid));
  return () => rmSync(marker, { force: true });
}
