// vitest's globalSetup: one compile cache for the whole run, in a temporary
// folder of its own (KRON_CACHE_DIR, inherited by the workers and every kron
// process a test starts), removed when the run ends. Without it a kron
// command run from a temporary folder (no node_modules there) wrote into the
// user's ~/.cache/kron, and runs from the repository kept entries from
// earlier runs in node_modules/.cache/kron, so a run's work depended on what
// the runs before it had left. Now each model is compiled from source once
// per run, whatever ran before. Tests of the cache itself set a folder of
// their own (test/cli/compile-cache.test.ts, cache-reads.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'kron-test-cache-'));
  process.env.KRON_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
