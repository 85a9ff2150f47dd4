// Memory comes back: the heap after many compiles whose results are dropped
// is the heap after a few (bench/heap.ts, in a child process with
// --expose-gc so that it can collect fully). Before the intern and memo
// tables were released with their compile, every compile of the chain n = 8
// kept about 9 MB (n = 8; 4 MB for n = 4); what remains is V8 warming up (optimised code, feedback),
// about 1 MB that stops growing. The loops are synchronous, as a user's would be.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function heap(...args: string[]): { growthMB: number; heapMB: { compiles: number; mb: number }[] } {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(root, 'bench/heap.ts'), '--json', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe('compiles release their memory', () => {
  it('30 compiles of a chain n = 4, each model built anew: the heap within 3 MB of that after 10', () => {
    const r = heap('--compiles', '30', '--n', '4');
    expect(r.heapMB.map((h) => h.compiles)).toEqual([0, 1, 10, 30]);
    expect(Math.abs(r.growthMB)).toBeLessThan(3);
  });

  it('a parameter study on one model kept alive (folded parameters, a new mass each compile): the same', () => {
    const r = heap('--compiles', '30', '--n', '4', '--sweep');
    expect(Math.abs(r.growthMB)).toBeLessThan(3);
  });
});
