// A fixed tendon (L = sum c_i q_i with a spring, damper and limits) against
// the same mechanism without it whose joints are driven by hand with
// tau_i = c_i F, F = -k (L - L0) - d Ld: the same accelerations (1e-12),
// both forms; its spring's energy in energy.potential; beyond its range the
// limit pushes L back.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { FixedTendon, Mechanism } from '../../src/library/multibody/index.ts';

const [c1, c2, k, d, L0] = [1.5, -0.7, 8, 0.6, 0.2];

function arm(tendon: boolean, limits?: readonly [number, number]): Mechanism {
  const m = new Mechanism('arm', { gravity: [0, -9.81, 0] });
  const j1 = m.revolute('j1', { axis: [0, 0, 1] });
  const b1 = m.body('b1', { m: 1, rcm: [0.4, 0, 0], I: [0.01, 0.02, 0.03] });
  const bar = m.bar('bar', { r: [0.5, 0, 0] });
  const j2 = m.revolute('j2', { axis: [0, 0, 1] });
  const b2 = m.body('b2', { m: 0.6, rcm: [0.3, 0, 0], I: [0.01, 0.02, 0.02] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b1.frame_a);
  m.connect(j1.frame_b, bar.frame_a);
  m.connect(bar.frame_b, j2.frame_a);
  m.connect(j2.frame_b, b2.frame_a);
  if (tendon)
    m.add(
      new FixedTendon('t', {
        joints: [
          { joint: j1, coef: c1 },
          { joint: j2, coef: c2 },
        ],
        stiffness: k,
        restLength: L0,
        damping: d,
        limits,
      }),
    );
  return m;
}

describe('fixed tendon', () => {
  for (const mode of ['torn', 'relaxed'] as const) {
    it(`equals the joints driven with c_i F by hand (${mode}, 1e-12); L, Ld, F and the spring energy are its signals`, () => {
      const [withTendon, byHand] = [compile(arm(true), { mode }), compile(arm(false), { mode })];
      for (const [q1, qd1, q2, qd2] of [
        [0.3, -1, 0.8, 2],
        [-1.2, 0.5, -0.4, -0.3],
        [2, 1.5, -2.5, 0.1],
      ]) {
        const x = Float64Array.of(q1, qd1, q2, qd2);
        const L = c1 * q1 + c2 * q2,
          Ld = c1 * qd1 + c2 * qd2,
          F = -k * (L - L0) - d * Ld;
        const [a, b] = [new Float64Array(4), new Float64Array(4)];
        withTendon.derivatives(0, x, a);
        byHand.setInput('j1.tau', c1 * F);
        byHand.setInput('j2.tau', c2 * F);
        byHand.derivatives(0, x, b);
        a.forEach((v, i) => expect(v).toBeCloseTo(b[i], 12));
        expect([withTendon.signal('t.L'), withTendon.signal('t.Ld'), withTendon.signal('t.F')].map((v) => Number(v.toFixed(12)))).toEqual(
          [L, Ld, F].map((v) => Number(v.toFixed(12))),
        );
        expect(withTendon.signal('energy.potential') - byHand.signal('energy.potential')).toBeCloseTo(0.5 * k * (L - L0) ** 2, 12);
      }
    });
  }

  it('beyond its range the limit spring pushes L back; inside it adds nothing', () => {
    const limited = compile(arm(true, [-0.5, 0.5])),
      free = compile(arm(true));
    const at = (c: typeof limited, q1: number) => (c.derivatives(0, Float64Array.of(q1, 0, 0, 0), new Float64Array(4)), c.signal('t.F'));
    expect(at(limited, 0.1)).toBeCloseTo(at(free, 0.1), 12); // L = 0.15, inside
    expect(at(limited, 0.6)).toBeLessThan(at(free, 0.6) - 1); // L = 0.9, beyond 0.5: pushed back
    expect(at(limited, -0.6)).toBeGreaterThan(at(free, -0.6) + 1); // L = -0.9, below -0.5
  });
});
