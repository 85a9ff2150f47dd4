// Sweeps without limits: more than 10^6 runs need --force, and then the runs
// are made one at a time: a billion-point grid or a billion samples take no
// memory, run i's values are those of the nested loops (grid) or of drawing
// run by run from the seed (samples), written plainly here as the oracles.
import { describe, expect, it } from 'vitest';
import { MAX_RUNS, Random, UsageError, parseDist, sweep, sweepPoints } from 'kron';
import { main } from '../../src/cli/main.ts';
import build from '../../mechanisms/pendulum.ts';

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

const HINT =
  "  hint: fewer points (--grid 'x=a:b:n' with a smaller n, a smaller --samples); with --force the runs are made one at a time as the sweep goes, the rows written as runs finish, and the same command resumes an interrupted sweep\n";

describe('more than 10^6 runs', () => {
  it('a billion-point grid or a billion samples without --force: a usage error before anything is compiled or made (exit 2)', async () => {
    const grid = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0:1:1000000000', '--stop', '0.01');
    expect(grid.stderr).toBe(`UsageError: the sweep has 1000000000 runs, more than 1000000: run it with --force (force: true from code)\n${HINT}`);
    expect(grid.code).toBe(2);
    const samples = await kron('sweep', 'mechanisms/pendulum.ts', '--samples', '1e9', '--dist', 'j1.q=uniform(0,1)');
    expect(samples.stderr).toBe(`UsageError: the sweep has 1000000000 runs, more than 1000000: run it with --force (force: true from code)\n${HINT}`);
    // a product of axes counts too; exactly 10^6 is allowed
    expect(() => sweepPoints({ grid: ['a=0:1:1001', 'b=0:1:1000'] })).toThrow(UsageError);
    expect(sweepPoints({ grid: ['a=0:1:1000', 'b=0:1:1000'] }).count).toBe(MAX_RUNS);
    expect(() => sweepPoints({ grid: ['a=0:1:1e9', 'b=0:1:1e9'], force: true })).toThrow(/more than can be numbered/);
  });

  it("with force, a billion-point grid holds none of its points: run i is the nested loops' point, read in any order", () => {
    const heap = process.memoryUsage().heapUsed;
    const points = sweepPoints({ grid: ['a=0:1:1000000000', 'b=-1,1'], force: true });
    expect(points.count).toBe(2e9);
    // nested loops, the first axis slowest: run i = (a_(i div 2), b_(i mod 2)), a_k = k / (10^9 - 1)
    for (const i of [0, 1, 2, 1_234_567_891, 2e9 - 1, 7]) {
      const k = Math.floor(i / 2);
      expect(points.at(i)).toEqual([k === 1e9 - 1 ? 1 : k / (1e9 - 1), i % 2 ? 1 : -1]);
    }
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(20e6); // the points as doubles: 8 GB
  });

  it('with force, a billion samples hold none: run i is the i-th draw of the seed, forwards or backwards', () => {
    const dist = ['m=normal(2,0.1)', 'q=uniform(-1,1)'];
    const points = sweepPoints({ samples: 1e9, dist, seed: 5, force: true });
    // the oracle: draw run by run from a generator of the same seed
    const random = new Random(5),
      ds = dist.map(parseDist);
    const drawn = Array.from({ length: 50 }, () => ds.map((d) => (d.kind === 'normal' ? random.normal(d.a, d.b) : random.uniform(d.a, d.b))));
    for (const i of [0, 1, 2, 49, 3, 48, 0]) expect(points.at(i)).toEqual(drawn[i]);
    expect(sweepPoints({ samples: 50, dist, seed: 5 }).values).toEqual(drawn);
  });

  it('sweep() of a billion runs with force: the first results come at once, and stopping early ends it', async () => {
    const results = [];
    for await (const r of sweep(build(), { grid: ['j1.q=0:1:1000000000'], simulate: { stop: 0.01, step: 1e-3 }, signals: ['j1.q'], workers: 2, force: true })) {
      results.push(r);
      if (results.length === 5) break;
    }
    expect(results.map((r) => [r.index, r.values['j1.q'], r.status])).toEqual([0, 1, 2, 3, 4].map((i) => [i, i / (1e9 - 1), 'ok']));
  });
});
