// A model module is JavaScript at run time: options the types would refuse
// reach the library anyway. Each is a ModelError naming the component and the
// option, with the nearest right name; before, `q: 'zero'` surfaced as "H z =
// c is singular" at compile time and `mass: 3` was silently ignored (a body
// without mass). Oracle: the message and hint, by hand, and the same models
// with the right options compiling and matching the closed form.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.ts';
import { Mechanism, compile } from '../../src/index.ts';

/** the ModelError the builder throws, as [message, hint] */
function refusal(build: () => unknown): [string, string | undefined] {
  try {
    build();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    return [(e as ModelError).message, (e as ModelError).details.hint];
  }
  throw new Error('no error');
}

// untyped on purpose: what a .js module or a cast hands the library
const loose = (o: object) => o as never;

describe('component options are checked when the component is built', () => {
  it('a string where a number belongs: the component, the option and the value', () => {
    const m = new Mechanism('arm');
    expect(refusal(() => m.revolute('j1', loose({ q: 'zero' })))).toEqual(["joint j1: option q is 'zero' (a string), where a number belongs", 'e.g. q: 0']);
  });

  it('an unknown option, with did you mean and the options there are', () => {
    const m = new Mechanism('arm');
    const [message, hint] = refusal(() => m.body('link', loose({ mass: 3, rcm: [0.5, 0, 0] })));
    expect(message).toBe('body link: unknown option mass');
    expect(hint).toBe('the options of body: m, rcm, I, gravity, geometry, collision');
    expect(refusal(() => m.revolute('j1', loose({ axsi: [0, 0, 1] })))[1]).toMatch(/^did you mean axis\? the options of joint: axis, q, qd, tau,/);
    // nothing near: the list alone
    expect(refusal(() => m.ball('b', loose({ Q: [1, 0, 0, 0], dampnig: 1 })))[1]).toBe('the options of joint: Q, w, tau, d, armature, cut, state, geometry');
  });

  it('a value not among the allowed ones; options that are not an object', () => {
    const m = new Mechanism('arm');
    expect(refusal(() => m.revolute('j1', loose({ limits: [-1, 1], limitKind: 'hard' })))[0]).toBe(
      "joint j1: option limitKind is 'hard' (a string), where one of 'spring', 'impact' belongs",
    );
    expect(refusal(() => m.bar('b', loose({ r: 'up' })))[0]).toBe("bar b: option r is 'up' (a string), where an array of numbers belongs");
    expect(refusal(() => new Mechanism('x', loose([0, -9.81, 0])))[0]).toBe('mechanism x: its options are an array of 3 (number), not an object');
  });

  it('the same models with the right options build and run: a pendulum against its closed form', () => {
    const m = new Mechanism('pendulum');
    const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.3 });
    const link = m.body('link', { m: 2, rcm: [0.5, 0, 0], I: [0.05, 0.05, 0.1] });
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, link.frame_a);
    const c = compile(m);
    const state = c.createState();
    const x = state.x0(),
      dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    // (m L^2 + Izz) qdd = -m g L cos q, gravity -9.80665 along y
    expect(dx[c.stateNames.indexOf('j1.qd')]).toBeCloseTo((-2 * 9.80665 * 0.5 * Math.cos(0.3)) / (2 * 0.25 + 0.1), 12);
  });
});
