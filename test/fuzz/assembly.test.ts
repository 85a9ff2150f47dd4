// Loops closed by the third attempt of Newton (src/codegen/runtime/newton.ts, newtonSolve):
// fuzz seed 274, a spatial revolute loop at a random state, where damped
// Newton and full Newton steps both stall from the warm start (and the
// engine before Levenberg-Marquardt stopped with "did not converge"). The
// Levenberg-Marquardt attempt closes it; the oracle (test/oracles/loops.ts,
// its own constraint Jacobian and dynamics) agrees with both modes.
import { describe, expect, it } from 'vitest';
import { runCase } from '../../bench/fuzz/check.ts';
import { generate } from '../../bench/fuzz/generate.ts';

describe('assembly by Levenberg-Marquardt', () => {
  it('fuzz seed 274: both modes close the loop and agree with the oracle', () => {
    const r = runCase(274, generate(274, {}));
    expect(r.failure).toBeUndefined();
    expect(r.cls).toBe('agree');
  });
});
