// The inverse problem's typed errors: a model without generalized
// coordinates, and one whose forces the accelerations do not determine
// (structurally singular), each naming the variable with a hint.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { KronError, StructuralError, UsageError } from '../../src/errors.ts';
import { mul, sub } from '../../src/expr/index.ts';
import { Component, type GeneralizedCoordinate, Model, der, variableOf } from '../../src/model/index.ts';
import rotational from '../../mechanisms/drivetrain.ts';

const thrown = (f: () => unknown): KronError => {
  try {
    f();
  } catch (e) {
    if (e instanceof KronError) return e;
    throw e;
  }
  throw new Error('no error thrown');
};

/** a rotor J qdd = u whose declared force tau enters no equation: forward dynamics is fine, the inverse problem is not */
class Rotor extends Component {
  readonly k: GeneralizedCoordinate;
  constructor(name: string) {
    super(name);
    const q = this.variable('q', { start: 0 }),
      qd = this.variable('qd', { start: 0 }),
      qdd = this.variable('qdd');
    const u = this.input('u', 1),
      tau = this.input('tau', 0);
    this.equation(der(q), qd);
    this.equation(der(qd), qdd);
    this.equation(mul(2, qdd), u);
    this.k = { q: variableOf(q)!, qd: variableOf(qd)!, qdd: variableOf(qdd)!, tau: variableOf(tau)! };
    void sub;
  }
}

class RotorModel extends Model {
  readonly rotor = this.add(new Rotor('r'));
  override generalizedCoordinates(): GeneralizedCoordinate[] {
    return [this.rotor.k];
  }
}

describe('inverse problem errors', () => {
  it('a force the accelerations do not determine: StructuralError naming it, with a hint', () => {
    const m = new RotorModel('rotor');
    expect(compile(m).report.states).toBe(2);
    const e = thrown(() => compile(m, { problem: 'inverse' }));
    expect(e).toBeInstanceOf(StructuralError);
    expect(e.message).toMatch(/inverse problem is structurally singular: the forces r\.tau are not determined/);
    expect(e.details.variables).toContain('r.tau (not determined)');
    expect(e.details.component).toBe('r');
    expect(e.details.hint).toMatch(/d'Alembert equation/);
  });

  it('a model without generalized coordinates (a drive train) has no inverse problem: UsageError with a hint', () => {
    const e = thrown(() => compile(rotational(), { problem: 'inverse' }));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toMatch(/declares no generalized coordinates/);
    expect(e.details.hint).toMatch(/Mechanism with state joints/);
  });

  it('an unknown problem is a UsageError', () => {
    expect(() => compile(new RotorModel('x'), { problem: 'backward' as never })).toThrow(UsageError);
  });
});
