// Events declared with Component.when on a model of plain equations: a
// thermostat whose heater is a mode. Heating, T' = -k T + P (to T_eq = P / k);
// off, T' = -k T. It switches off when T rises through 22 and on when T
// falls through 20, so from T0 = 20 with the heater on the closed form
// gives every switching time: on for ln((T_eq - 20) / (T_eq - 22)) / k, off
// for ln(22 / 20) / k. The switch-off indicator reads an unknown (the
// model is evaluated before the indicators), the switch-on one a state.
import { describe, expect, it } from 'vitest';
import { add, mul, sub } from '../../../src/expr/index.ts';
import { Model, der } from '../../../src/model/index.ts';
import { compile } from '../../../src/compile.ts';
import { CompiledModel } from '../../../src/codegen/compiled.ts';
import { simulate } from '../../../src/sim/simulate.ts';
import { ModelError } from '../../../src/errors.ts';
import { eventRun } from './run-events.ts';

const k = 0.5,
  P = 15,
  Teq = P / k;
const on = Math.log((Teq - 20) / (Teq - 22)) / k,
  off = Math.log(22 / 20) / k;

/** the switching times before `stop`: off, on, off, ... */
function switches(stop: number): number[] {
  const out: number[] = [];
  for (let t = on, heating = true; t <= stop; heating = !heating, t += heating ? on : off) out.push(t);
  return out;
}

function thermostat() {
  const m = new Model('thermostat');
  const T = m.variable('T', { start: 20 });
  const heater = m.mode('heater', 1);
  const above = m.variable('above'); // an unknown: T - 22
  m.equation(above, sub(T, 22));
  m.equation(der(T), add(mul(-k, T), mul(P, heater)));
  m.when('off', above, { direction: 'rising', set: [[heater, 0]] });
  m.when('on', sub(T, 20), { direction: 'falling', set: [[heater, 1]] });
  return m;
}

describe('a mode switched by events (a thermostat)', () => {
  for (const mode of ['torn', 'relaxed'] as const) {
    const compiled = compile(thermostat(), { mode });
    for (const integrator of ['rk4', 'adaptive'] as const) {
      it(`${integrator}, ${mode} form: the switching times of the closed form to 1e-9`, () => {
        expect(compiled.data.events!.readsModel).toBe(true);
        const run = eventRun(compiled, integrator, 20);
        run.runTo(20);
        const expected = switches(20);
        expect(run.records.map((r) => compiled.report.events![r.k].name)).toEqual(expected.map((_, i) => (i % 2 === 0 ? 'off' : 'on')));
        run.records.forEach((r, i) => {
          expect(Math.abs(r.t - expected[i])).toBeLessThan(1e-9);
          expect(r.after[0]).toBeCloseTo(i % 2 === 0 ? 22 : 20, 9);
        });
      });
    }
  }

  it('runs through simulate(), the report and the run naming the events', () => {
    const compiled = compile(thermostat());
    expect(compiled.report.events).toEqual([
      { name: 'off', component: '', direction: 'rising' },
      { name: 'on', component: '', direction: 'falling' },
    ]);
    const result = simulate(compiled, { stop: 10, step: 1e-3, signals: ['T', 'heater'] });
    const n = switches(10).length;
    expect(result.events).toEqual([
      { name: 'off', count: Math.ceil(n / 2) },
      { name: 'on', count: Math.floor(n / 2) },
    ]);
    expect(Math.max(...result.get('T'))).toBeLessThan(22 + 1e-9);
    expect(Math.min(...result.get('T'))).toBeGreaterThan(20 - 1e-9);
  });

  it('travels with the portable model as data (a worker, the compile cache): the same run', () => {
    const compiled = compile(thermostat());
    const copy = new CompiledModel(JSON.parse(JSON.stringify(compiled.portable())));
    const a = simulate(compiled, { stop: 10, step: 1e-3 }),
      b = simulate(copy, { stop: 10, step: 1e-3 });
    expect([...b.get('T')]).toEqual([...a.get('T')]);
  });
});

describe('several indicators crossing in one step', () => {
  it('fire in the order of their crossings, each at its time', () => {
    // x' = 1 from 0: 'late' at x = 0.5 declared before 'early' at x = 0.4; one adaptive step spans both
    const m = new Model('two');
    const x = m.variable('x', { start: 0 });
    const a = m.mode('a', 0),
      b = m.mode('b', 0);
    m.equation(der(x), 1);
    m.when('late', sub(x, 0.5), { direction: 'rising', set: [[a, 1]] });
    m.when('early', sub(x, 0.4), { direction: 'rising', set: [[b, 1]] });
    const compiled = compile(m);
    const run = eventRun(compiled, 'adaptive', 2, { step: 1 });
    run.runTo(2);
    expect(run.records.map((r) => compiled.report.events![r.k].name)).toEqual(['early', 'late']);
    expect(Math.abs(run.records[0].t - 0.4)).toBeLessThan(1e-12);
    expect(Math.abs(run.records[1].t - 0.5)).toBeLessThan(1e-12);
  });
});

describe('when() refuses what it cannot run, naming the event', () => {
  const cases: [string, (m: Model) => void, RegExp][] = [
    [
      'a set of a variable that is not a mode',
      (m) => m.when('e', m.variable('y'), { set: [[m.variable('z'), 1]] }),
      /event e: set takes a mode declared with mode\(\)/,
    ],
    ['no action', (m) => m.when('e', m.variable('y'), {}), /event e: has no action/],
    ['an unknown direction', (m) => m.when('e', m.variable('y'), { direction: 'up' as 'rising', set: [[m.mode('h'), 1]] }), /direction "up" is not known/],
    ['a reinit of an expression', (m) => m.when('e', m.variable('y'), { reinit: [[add(m.variable('z'), 1), 0]] }), /reinit\(\) takes a state variable/],
  ];
  for (const [what, declare, message] of cases) {
    it(what, () => {
      const m = new Model('bad');
      expect(() => declare(m)).toThrow(ModelError);
      expect(() => declare(new Model('bad'))).toThrow(message);
    });
  }

  it('a reinit of a variable that is not a state, at compile time', () => {
    const m = new Model('bad');
    const x = m.variable('x', { start: 1 }),
      y = m.variable('y');
    m.equation(der(x), -1);
    m.equation(y, mul(2, x));
    m.when('e', x, { direction: 'falling', reinit: [[y, 1]] });
    expect(() => compile(m)).toThrow(/event e reinitialises y, which is not a state of the compiled model/);
  });
});
