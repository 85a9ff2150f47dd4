// compile() is pure: parameter and start values are data for one compile,
// never written into the model, so a model compiles the same however often
// and with whatever values it was compiled before, and an earlier compiled
// model keeps its own values. Oracle: the pendulum's closed form
// (m L^2 + Izz) qdd = -m g L cos(q) (mechanisms/pendulum.ts).
import { describe, expect, it } from 'vitest';
import build, { parameters as P } from '../../mechanisms/pendulum.ts';
import chain from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import { ModelError } from '../../src/errors.ts';
import { type Model, components } from '../../src/model/index.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/world.ts';

const qddOracle = (q: number, m: number) => (-m * STANDARD_GRAVITY * P.L * Math.cos(q)) / (m * P.L * P.L + P.Izz);

/** everything compile() could write into a model: each variable's fields, each component's equations */
function snapshot(model: Model): string {
  return JSON.stringify(
    components(model).map((c) => ({
      path: c.path,
      equations: c.equations.length,
      variables: c.variables.map((v) => ({
        name: v.name,
        kind: v.kind,
        value: v.value,
        start: v.start,
        nominal: v.nominal,
        tearing: v.tearing,
        der: v.derivative?.name,
      })),
    })),
  );
}

function qdd(c: ReturnType<typeof compile>, q: number): number {
  const dx = new Float64Array(2);
  c.derivatives(0, Float64Array.of(q, 0), dx);
  return dx[1];
}

describe('compile() leaves the model as it was', () => {
  it('compile(m, { parameters, start }) changes no variable, and compile(m) then uses the declared values', () => {
    const m = build();
    compile(m); // elaborated once, as any compile does: the joints' state equations belong to the model
    const before = snapshot(m);
    const heavy = compile(m, { parameters: { 'link.m': 5 }, start: { 'j1.q': 1 } });
    expect(snapshot(m)).toBe(before);
    const plain = compile(m);
    expect(snapshot(m)).toBe(before);

    expect(plain.signal('link.m')).toBe(P.m);
    expect([...plain.x0()]).toEqual([P.q0, P.qd0]);
    expect(qdd(plain, 0.7)).toBeCloseTo(qddOracle(0.7, P.m), 12);
    // the earlier compiled model keeps its values after the later compile
    expect(heavy.signal('link.m')).toBe(5);
    expect([...heavy.x0()]).toEqual([1, P.qd0]);
    expect(qdd(heavy, 0.7)).toBeCloseTo(qddOracle(0.7, 5), 12);
  });

  it('compiles to the same code as a model that was never compiled, whatever was compiled before', () => {
    const fresh = compile(build()).source();
    const m = build();
    compile(m, { parameters: { 'link.m': 5 } });
    compile(m, { mode: 'relaxed', foldParameters: false });
    expect(compile(m).source()).toBe(fresh);
    expect(compile(m).source()).toBe(fresh);
  });

  it('kept parameters too: what one compile derived is not handed to the next (chain n = 3, relaxed and torn)', () => {
    for (const mode of ['relaxed', 'torn'] as const) {
      const fresh = compile(chain({ n: 3 }), { mode, foldParameters: false }).source();
      const m = chain({ n: 3 });
      compile(m, { mode, foldParameters: false });
      expect(compile(m, { mode, foldParameters: false }).source()).toBe(fresh);
    }
  });

  it('a start value that names no state is a ModelError listing the states', () => {
    const m = build();
    let error: unknown;
    try {
      compile(m, { start: { 'j1.qq': 1 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('no state named j1.qq to give a start value');
    expect((error as ModelError).details).toMatchObject({ variables: ['j1.qq'], hint: expect.stringMatching(/^did you mean j1\.qd\? states: j1\.q, j1\.qd/) });
    expect(compile(m, { start: { 'j1.q': 2 } }).x0()[0]).toBe(2);
    expect(compile(m).x0()[0]).toBe(P.q0);
  });
});
