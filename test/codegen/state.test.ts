// Run states (src/codegen/state.ts): one compiled model, many simulations
// side by side. Two states with different start values and parameters,
// their derivative calls interleaved stage by stage, give exactly what each
// gives alone; Newton warm starts (the four-bar's position loop) live in each
// state's workspace. Oracles: the pendulum's closed form
// (m L^2 + Izz) qdd = -m g L cos(q), and the four-bar's Lagrangian
// (test/oracles/fourbar.ts).
import { describe, expect, it } from 'vitest';
import pendulum, { parameters as P } from '../../mechanisms/pendulum.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import { compile } from '../../src/compile.ts';
import { ModelError, UsageError } from '../../src/errors.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/world.ts';
import { simulate } from '../../src/sim/simulate.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import type { StateValues } from '../../src/codegen/compiled.ts';
import * as fourbarOracle from '../oracles/fourbar.ts';

const H = 1e-3,
  STEPS = 300;

/** one classical RK4 step of dx = f(x), f writing into its first argument */
function rk4Step(x: Float64Array, f: (dx: Float64Array, x: Float64Array) => void): Generator<void, Float64Array> {
  return (function* () {
    const n = x.length,
      k = [0, 1, 2, 3].map(() => new Float64Array(n)),
      y = new Float64Array(n);
    for (const [s, c] of [
      [0, 0],
      [1, 0.5],
      [2, 0.5],
      [3, 1],
    ] as const) {
      for (let i = 0; i < n; i++) y[i] = x[i] + c * H * (s ? k[s - 1][i] : 0);
      f(k[s], y);
      yield; // the other state runs a stage here
    }
    return Float64Array.from(x, (xi, i) => xi + (H / 6) * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]));
  })();
}

/** RK4 on several states at once, stage by stage in turn; the trajectory of `signal` for each */
function interleaved(states: ModelState[], signal: string): number[][] {
  const xs = states.map((s) => s.x0());
  const out = states.map((s, i) => [s.reader(signal)(xs[i])]);
  for (let step = 0; step < STEPS; step++) {
    const runs = states.map((s, i) => rk4Step(xs[i], (dx, y) => s.derivatives(step * H, y, dx)));
    let done = false;
    while (!done) {
      for (const [i, r] of runs.entries()) {
        const next = r.next();
        if (next.done) {
          xs[i] = next.value;
          done = true;
        }
      }
    }
    states.forEach((s, i) => out[i].push(xs[i][states[i].model.stateNames.indexOf(signal)]));
  }
  return out;
}

/** the same run alone, through simulate() */
const alone = (c: ReturnType<typeof compile>, signal: string, values: StateValues) => [
  ...simulate(c, { ...values, stop: STEPS * H, step: H, signals: [signal] }).columns[0],
];

describe('states of one compiled model', () => {
  const keep = compile(pendulum(), { foldParameters: false });
  const a = { start: { 'j1.q': 0.3 } };
  const b = { start: { 'j1.q': 1.2, 'j1.qd': -0.5 }, parameters: { 'link.m': 2.5 } };

  it('interleaved, two pendulums with other start values and masses run exactly as each alone', () => {
    const [qa, qb] = interleaved([keep.createState(a), keep.createState(b)], 'j1.q');
    expect(qa).toEqual(alone(keep, 'j1.q', a));
    expect(qb).toEqual(alone(keep, 'j1.q', b));
    expect(qb[0]).toBe(1.2);
    expect(qa[STEPS]).not.toBeCloseTo(qb[STEPS], 2);
  });

  it('each follows the closed form with its own mass', () => {
    for (const [values, m] of [
      [a, P.m],
      [b, 2.5],
    ] as const) {
      const state = keep.createState(values);
      const x = state.x0();
      const dx = new Float64Array(2);
      state.derivatives(0, x, dx);
      expect(dx[1]).toBeCloseTo((-m * STANDARD_GRAVITY * P.L * Math.cos(x[0])) / (m * P.L * P.L + P.Izz), 12);
      expect(state.signal('link.m')).toBe(m);
    }
  });

  it('a kept parameter set per run equals compiling with it folded', () => {
    const folded = compile(pendulum(), { parameters: { 'link.m': 2.5 } });
    const viaRun = alone(keep, 'der(j1.qd)', b);
    const viaCompile = alone(folded, 'der(j1.qd)', { start: b.start });
    viaRun.forEach((v, k) => expect(v).toBeCloseTo(viaCompile[k], 11));
  });

  it('simulate() leaves the compiled model and its default state as they were', () => {
    const w = [...keep.w],
      p = Float64Array.from(keep.p),
      x0 = keep.x0();
    alone(keep, 'j1.q', b);
    expect(keep.w).toEqual(w);
    expect(keep.p).toEqual(p);
    expect(keep.x0()).toEqual(x0);
    expect(keep.signal('link.m')).toBe(P.m);
  });

  it('the four-bar: Newton warm starts stay in each state, interleaved runs equal separate ones and the oracle', () => {
    const c = compile(fourbar());
    expect(c.report.blocks.some((blk) => !blk.linear)).toBe(true); // a Newton block
    const slow = { start: { 'j1.q': 0, 'j1.qd': 2 } };
    const fast = { start: { 'j1.q': 0.6, 'j1.qd': 6 } };
    const [s, f] = interleaved([c.createState(slow), c.createState(fast)], 'j1.q');
    expect(s).toEqual(alone(c, 'j1.q', slow));
    expect(f).toEqual(alone(c, 'j1.q', fast));
    for (const values of [slow, fast]) {
      const state = c.createState(values);
      const x = state.x0(),
        dx = new Float64Array(x.length);
      state.derivatives(0, x, dx);
      const [phi, phid] = [values.start['j1.q'], values.start['j1.qd']];
      expect(Math.abs(dx[1] / fourbarOracle.acceleration(phi, phid) - 1)).toBeLessThan(2e-6);
    }
  });
});

describe('values a state refuses, with a typed error naming the variable', () => {
  const folded = compile(pendulum());
  const kept = compile(pendulum(), { foldParameters: false });

  it('a folded parameter cannot change (its own value is fine); a kept one can', () => {
    const state = folded.createState();
    expect(() => state.setParameter('link.m', 3)).toThrow(UsageError);
    expect(() => state.setParameter('link.m', 3)).toThrow(/folded into the generated code .*cannot change without compiling again/);
    try {
      simulate(folded, { stop: 0.01, step: 1e-3, parameters: { 'link.m': 3 } });
      expect.unreachable();
    } catch (e) {
      expect((e as UsageError).details).toMatchObject({
        variables: ['link.m'],
        hint: expect.stringMatching(/^compile with foldParameters: false \(kron: --keep-parameters\)/),
      });
    }
    state.setParameter('link.m', P.m);
    kept.createState().setParameter('link.m', 3);
  });

  it('a parameter the model does not have, a value the body refuses, a non-finite value', () => {
    const state = kept.createState();
    expect(() => state.setParameter('link.mass', 3)).toThrow(ModelError);
    expect(() => state.setParameter('link.mass', 3)).toThrow(/no parameter named link\.mass/);
    expect(() => state.setParameter('link.m', -1)).toThrow(/body link: mass -1 is not a finite number >= 0/);
    expect(state.signal('link.m')).toBe(P.m); // refused values are not kept
    expect(() => state.setParameter('link.m', NaN)).toThrow(ModelError);
  });

  it('a start value for something that is not a state lists the states', () => {
    const state = kept.createState();
    expect(() => state.setStart('j2.q', 1)).toThrow(ModelError);
    try {
      simulate(kept, { stop: 0.01, step: 1e-3, start: { 'j2.q': 1 } });
      expect.unreachable();
    } catch (e) {
      expect((e as ModelError).message).toBe('no state named j2.q to give a start value');
      expect((e as ModelError).details.hint).toMatch(/^did you mean j1\.q\? states: j1\.q, j1\.qd /);
    }
    expect(() => state.setStart('link.m', 1)).toThrow(/no state named link\.m/);
    expect(() => state.setStart('j1.q', Infinity)).toThrow(/start value of j1\.q set to Infinity/);
  });
});
