// The relaxing iteration (relaxing paper section 4, after eq. 11; issue 19) on
// the RC grid of mechanisms/rcgrid.ts, against an independent oracle: the
// grid's nodal equations written out by hand and solved densely with partial
// pivoting (grid-oracle.ts), integrated by the same classical RK4.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SimulationError, UsageError } from '../../src/errors.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import build from '../../mechanisms/rcgrid.ts';
import { type Grid, gridDerivatives, integrateGrid } from './grid-oracle.ts';

const grid = (n: number): Grid => ({ n, V: 1, R: 1, Rc: 1, C: 1 });
const TOL = 1e-10;

/** the largest |u - oracle| over one simulated second, sampled every 0.1 s (RK4, h = 1e-3) */
function deviation(compiled: CompiledModel, oracle: Float64Array[], n: number) {
  const run = simulate(compiled, { stop: 1, step: 1e-3, interval: 0.1 });
  let worst = 0;
  for (let k = 0; k < n * n; k++) {
    const u = run.get(`C_${Math.floor(k / n)}_${k % n}.u`);
    oracle.forEach((o, s) => (worst = Math.max(worst, Math.abs(u[s] - o[k]))));
  }
  return { worst, run };
}

describe('RC grid, relaxing iteration', () => {
  it('n = 10: the iteration follows the oracle to the tolerance over one second; direct elimination only to 1e-6', () => {
    const oracle = integrateGrid(grid(10), 1e-3, 1000, 100);
    const iterated = compile(build({ n: 10 }), { relaxIterate: { tol: TOL } });
    const { worst, run } = deviation(iterated, oracle, 10);
    expect(worst).toBeLessThan(10 * TOL);
    // the remainder torn by the heuristic marches row by row through the grid: its rounding grows
    // like (2 + sqrt 3)^n (measured: 7e-7 at n = 10, 5 at n = 14); the iteration has no such growth
    const direct = deviation(compile(build({ n: 10 }), { mode: 'relaxed' }), oracle, 10).worst;
    expect(direct).toBeGreaterThan(worst);
    expect(direct).toBeLessThan(1e-5);
    // RK4: 4 evaluations a step, 1000 steps; the samples (states only) need no evaluation
    const [stats] = run.iterations!;
    expect(stats).toMatchObject({ loop: 0, evaluations: 4000 });
    expect(stats.meanSweeps).toBeGreaterThan(1);
    expect(stats.maxSweeps).toBeLessThanOrEqual(500);
    expect(stats.sweeps).toBe(Math.round(stats.meanSweeps * stats.evaluations));
  });

  it('n = 5, where direct elimination is exact (1e-12): both agree to the tolerance over one second', () => {
    const oracle = integrateGrid(grid(5), 1e-3, 1000, 100);
    const direct = compile(build({ n: 5 }), { mode: 'relaxed' });
    const iterated = compile(build({ n: 5 }), { relaxIterate: { tol: TOL } });
    const a = simulate(direct, { stop: 1, step: 1e-3, interval: 0.1 }),
      b = simulate(iterated, { stop: 1, step: 1e-3, interval: 0.1 });
    for (const name of a.names) a.get(name).forEach((v, s) => expect(Math.abs(b.get(name)[s] - v)).toBeLessThan(10 * TOL));
    expect(deviation(direct, oracle, 5).worst).toBeLessThan(1e-11);
  });

  it('reports per relaxed loop which method ran', () => {
    const { report } = compile(build({ n: 4 }), { relaxIterate: { omega: 1.2 } });
    expect(report.mode).toBe('relaxed');
    // 4 x 4 nodes: the node (0,0) is the source's; the other 15 potentials iterate
    expect(report.relaxedLoops).toEqual([
      expect.objectContaining({ remainder: 15, method: 'iteration', iteration: { variables: 15, tol: 1e-10, maxSweeps: 500, omega: 1.2 } }),
    ]);
    expect(compile(build({ n: 4 }), { mode: 'relaxed' }).report.relaxedLoops[0].method).toBeUndefined();
  });

  it('warm start: a second evaluation at the same point converges in one sweep', () => {
    const c = compile(build({ n: 6 }), { relaxIterate: true });
    const state = c.createState();
    const x = Float64Array.from(c.stateNames, (_, i) => Math.sin(i));
    const dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const first = state.iterationStats()[0];
    state.derivatives(0, x, dx);
    const second = state.iterationStats()[0];
    expect(first.sweeps).toBeGreaterThan(5);
    expect(second.sweeps - first.sweeps).toBe(1);
    // and the derivatives are the oracle's at that state
    const n = 6,
      ref = gridDerivatives(grid(n), orderByNode(c, x, n));
    c.stateNames.forEach((s, i) => expect(Math.abs(dx[i] - ref[nodeOf(s, n)])).toBeLessThan(1e-9));
  });

  it('successive over-relaxation (omega 1.3) takes fewer sweeps to the same solution', () => {
    const run = (omega: number) => simulate(compile(build({ n: 8 }), { relaxIterate: { omega } }), { stop: 0.2, step: 1e-3, interval: 0.1 });
    const gs = run(1),
      sor = run(1.3);
    expect(sor.iterations![0].meanSweeps).toBeLessThan(0.8 * gs.iterations![0].meanSweeps);
    for (const name of gs.names) gs.get(name).forEach((v, s) => expect(Math.abs(sor.get(name)[s] - v)).toBeLessThan(1e-9));
  });

  it('too few sweeps: a SimulationError naming the slowest variables', () => {
    const c = compile(build({ n: 6 }), { relaxIterate: { tol: 1e-14, maxSweeps: 3 } });
    let error: unknown;
    try {
      simulate(c, { stop: 0.01, step: 1e-3 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SimulationError);
    const e = error as SimulationError;
    expect(e.message).toMatch(/relaxing iteration of relaxed loop 0 \(35 iteration variables\) did not converge in 3 sweeps at time 0/);
    expect(e.details.variables).toHaveLength(5);
    for (const v of e.details.variables!) expect(v).toMatch(/^Rc_\d+_\d+\.vp$/);
    expect(e.details.hint).toMatch(/--iterate-max-sweeps/);
  });

  it('a vanishing pivot (a resistance set to 0 at run time) stops the run with a SimulationError', () => {
    const c = compile(build({ n: 3 }), { relaxIterate: true, foldParameters: false });
    expect(c.report.relaxedLoops[0].checkedPivots).toBeGreaterThan(0);
    expect(() => simulate(c, { stop: 0.01, step: 1e-3, parameters: { 'Rh_1_1.R': 0 } })).toThrow(/pivot of the relaxing iteration of relaxed loop 0 vanished/);
  });

  it('options that cannot run are usage errors', () => {
    const m = () => build({ n: 2 });
    expect(() => compile(m(), { relaxIterate: { omega: 2 } })).toThrow(UsageError);
    expect(() => compile(m(), { relaxIterate: { tol: 0 } })).toThrow(/tolerance/);
    expect(() => compile(m(), { relaxIterate: { maxSweeps: 0.5 } })).toThrow(/sweep count/);
    expect(() => compile(m(), { mode: 'torn', relaxIterate: true })).toThrow(/ignores/);
  });
});

const nodeOf = (state: string, n: number) => {
  const [, r, c] = /^C_(\d+)_(\d+)\.u$/.exec(state)!;
  return Number(r) * n + Number(c);
};

/** the state vector x as the oracle's u, row-major by node */
function orderByNode(c: CompiledModel, x: Float64Array, n: number): Float64Array {
  const u = new Float64Array(n * n);
  c.stateNames.forEach((s, i) => (u[nodeOf(s, n)] = x[i]));
  return u;
}
