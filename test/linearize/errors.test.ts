// Bad input to linearize() and frameJacobian(): typed errors naming the
// variable at fault, with a hint.
import { describe, expect, it } from 'vitest';
import pendulum from '../../mechanisms/pendulum.ts';
import fourbarPlanar from '../../mechanisms/fourbar-planar.ts';
import { Component, Model, der, mul, pow } from '../../src/index.ts';
import { compile } from '../../src/compile.ts';
import { ModelError, UsageError, type KronError } from '../../src/errors.ts';
import { frameJacobian, linearize } from '../../src/analysis/index.ts';

function thrown(f: () => unknown): KronError {
  try {
    f();
  } catch (e) {
    return e as KronError;
  }
  throw new Error('no error thrown');
}

/** der(x) = -y with y^3 = x: at x = 0 the equations determine y (y = 0) but dy/dx does not exist */
class Cubic extends Component {
  constructor() {
    super('c');
    const x = this.variable('x', { start: 0 });
    const y = this.variable('y', { start: 0 });
    this.equation(der(x), mul(-1, y));
    this.equation(pow(y, 3), x);
  }
}

describe('linearize: errors', () => {
  it('an unknown state name lists the states and inputs', () => {
    const e = thrown(() => linearize(pendulum(), { at: { 'j1.phi': 0 } }));
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toBe('no state or input named j1.phi: the operating point is given by the states and inputs');
    expect(e.details.variables).toEqual(['j1.phi']);
    expect(e.details.hint).toBe('states: j1.q, j1.qd; inputs: j1.tau');
  });
  it('an unknown of the equations is not part of the operating point', () => {
    const e = thrown(() => linearize(pendulum(), { at: { 'der(j1.qd)': 0 } }));
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toBe('der(j1.qd) is not a state or an input (the equations determine it): the operating point is given by the states and inputs');
    expect(e.details.hint).toContain('a first guess of an unknown goes to start (kron: --start)');
  });
  it('unknown inputs, outputs and frames; compile options with a compiled model', () => {
    expect(thrown(() => linearize(pendulum(), { inputs: ['j2.tau'] })).message).toBe('no input named j2.tau');
    const out = thrown(() => linearize(pendulum(), { outputs: ['j1.angle'] }));
    expect(out.message).toBe('no signal named j1.angle to linearize as an output');
    expect(out.details.variables).toEqual(['j1.angle']);
    const frame = thrown(() => frameJacobian(pendulum(), 'link.frame_c'));
    expect(frame).toBeInstanceOf(ModelError);
    expect(frame.message).toBe('no frame named link.frame_c');
    expect(frame.details.hint).toContain('link.frame_a');
    expect(thrown(() => linearize(compile(pendulum()), { mode: 'relaxed' }))).toBeInstanceOf(UsageError);
    expect(thrown(() => linearize(pendulum(), { at: { 'j1.q': NaN } })).message).toBe('j1.q set to NaN at the operating point');
  });
  it("an operating point where the loop cannot close names the loop's unknowns", () => {
    // crank 0.35, coupler 0.5, rocker 0.3, ground 0.6: at theta2 = pi the crank pin is 0.95 from the rocker's pivot, beyond b + c = 0.8
    const e = thrown(() => linearize(fourbarPlanar({ a: 0.35, b: 0.5, c: 0.3, theta2: 0 }), { at: { 'j1.q': Math.PI } }));
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toMatch(
      /^no consistent solution at the operating point: Newton iteration did not converge at time 0 in the algebraic loop of \d+ unknowns \(tearing variables j2\.q, j4\.q; kinematic loop cut at j3 with joints j2, j1, j4\)/,
    );
    expect(e.details.variables).toContain('j2.q');
    expect(e.details.variables).toContain('j4.q');
    expect(e.details.hint).toContain('the operating point was j1.q=3.141592653589793, j1.qd=4');
  });
  it('a singular F_z names the unknown it does not determine and its equation', () => {
    const m = new Model('cubic');
    m.add(new Cubic());
    const e = thrown(() => linearize(m, { at: { 'c.x': 0 } }));
    expect(e).toBeInstanceOf(ModelError);
    // y is an alias of -der(c.x): the representative is named
    expect(e.message).toBe('the equations do not determine der(c.x) at the operating point: their Jacobian with respect to the unknowns is singular');
    expect(e.details.variables).toEqual(['der(c.x)']);
    expect(e.details.equations).toEqual(['c: c.y^3 = c.x']);
    expect(e.details.hint).toContain('choose another operating point');
  });
  it('the cubic away from x = 0: A = -dy/dx = -1 / (3 y^2)', () => {
    const m = new Model('cubic');
    m.add(new Cubic());
    const l = linearize(m, { at: { 'c.x': 8 }, start: { 'c.y': 1.5 } });
    expect(l.A[0][0]).toBeCloseTo(-1 / 12, 14);
    expect(l.dx[0]).toBeCloseTo(-2, 14);
    // the same first guess with a compiled model (from y = 0 Newton cannot start: dF/dy = 0)
    const compiled = compile(m);
    expect(linearize(compiled, { at: { 'c.x': 8 }, start: { 'c.y': 1.5 } }).A).toEqual(l.A);
    expect(thrown(() => linearize(compiled, { at: { 'c.x': 8 } }))).toBeInstanceOf(ModelError);
  });
});
