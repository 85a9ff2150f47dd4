// The generated code stays optimised through a run: no function of it (or
// of the runtime it calls) is deoptimised. A branch first taken late in a run
// (a new smallest Cholesky pivot, a new largest relaxed pivot) finds no type
// feedback, V8 throws the optimised code away and compiles it again: the
// PUMA's unrolled Cholesky did so twice per 10 s run, a tenth of the run's CPU.
// V8's own trace (--trace-deopt) is the oracle.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

describe('deoptimisation', () => {
  it('the torn and relaxed PUMA and the four-bar (Newton) run 10 s without a deoptimised generated function', () => {
    // a process each: models run in one process would make the call sites that take the generated code polymorphic
    for (const run of ['mechanisms/puma560.ts:torn:10', 'mechanisms/puma560.ts:relaxed:10', 'mechanisms/fourbar.ts:torn:3']) {
      const r = spawnSync(process.execPath, ['--trace-deopt', '--import', 'tsx', 'test/codegen/fixtures/deopt-run.ts', run], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      expect(r.status, r.stderr).toBe(0);
      const generated = new Set(r.stderr.split('\n').flatMap((l) => (l.startsWith('generated ') ? [l.slice(10)] : [])));
      expect(generated.has('derivatives')).toBe(true);
      const deoptimised = [...r.stdout.matchAll(/bailout \(kind: [\w-]+, reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction (\w+)/g)]
        .filter((m) => generated.has(m[2]))
        .map((m) => `${run} ${m[2]}: ${m[1]}`);
      expect(deoptimised).toEqual([]);
    }
  }, 120_000);
});
