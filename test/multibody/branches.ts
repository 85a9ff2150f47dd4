// A root body with two branches, the first of 1e12 kg: the light branch's
// relaxed pivot (2e-14 of the heavy one) comes after it and fails its check,
// and the torn form, scaled to a unit diagonal, solves it (safety.test.ts,
// codegen/wasm.test.ts).
import { Mechanism } from '../../src/library/multibody/index.ts';

export function heavyLightBranches(): Mechanism {
  const m = new Mechanism('branches');
  const j0 = m.revolute('j0', { axis: [0, 1, 0], q: 0.3, qd: 0.2 });
  const root = m.body('root', { m: 1, rcm: [0.1, 0, 0], I: [0.01, 0.02, 0.03] });
  m.connect(m.world.frame_b, j0.frame_a);
  m.connect(j0.frame_b, root.frame_a);
  for (const [name, mass, y] of [
    ['heavy', 1e12, 0.2],
    ['light', 1, -0.2],
  ] as const) {
    const j = m.revolute(`j${name}`, { axis: [0, 0, 1], q: 0.4, qd: -0.5 });
    const b = m.body(name, { m: mass, rcm: [0.3, 0.1, 0], I: [mass * 0.01, mass * 0.02, mass * 0.03] });
    const bar = m.bar(`bar${name}`, { r: [0, y, 0] });
    m.connect(j0.frame_b, bar.frame_a);
    m.connect(bar.frame_b, j.frame_a);
    m.connect(j.frame_b, b.frame_a);
  }
  return m;
}
