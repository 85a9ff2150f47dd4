// A composite component with frames of its own (Modelica's inside/outside
// connectors): a link made of a bar and a body whose frame_a and frame_b are
// the composite's, connected inside it to its parts. The double pendulum built
// from two such links must move exactly like the one built from the parts.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { Body, FixedTranslation, Frame, Mechanism } from '../../src/library/multibody/index.ts';
import { Component } from '../../src/model/index.ts';
import type { Vec3Like } from '../../src/expr/index.ts';

class Link extends Component {
  readonly frame_a: Frame;
  readonly frame_b: Frame;
  constructor(name: string, length: number, mass: number, gravity: Vec3Like) {
    super(name);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    const bar = this.add(new FixedTranslation('bar', { r: [length, 0, 0] }));
    const body = this.add(new Body('body', { m: mass, rcm: [length / 2, 0, 0], I: [0.001, (mass * length ** 2) / 12, (mass * length ** 2) / 12], gravity }));
    this.connect(this.frame_a, bar.frame_a);
    this.connect(bar.frame_b, this.frame_b);
    this.connect(this.frame_a, body.frame_a);
  }
}

function pendulum(composite: boolean): Mechanism {
  const m = new Mechanism(composite ? 'composite' : 'flat');
  const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.4, qd: 1 });
  const j2 = m.revolute('j2', { axis: [0, 0, 1], q: -0.3, qd: -2 });
  m.connect(m.world.frame_b, j1.frame_a);
  if (composite) {
    const l1 = m.add(new Link('l1', 0.5, 1, m.world.g));
    const l2 = m.add(new Link('l2', 0.4, 0.8, m.world.g));
    m.connect(j1.frame_b, l1.frame_a);
    m.connect(l1.frame_b, j2.frame_a);
    m.connect(j2.frame_b, l2.frame_a);
  } else {
    for (const [k, [L, mass]] of [
      [0.5, 1],
      [0.4, 0.8],
    ].entries()) {
      const bar = m.bar(`bar${k + 1}`, { r: [L, 0, 0] });
      const body = m.body(`body${k + 1}`, { m: mass, rcm: [L / 2, 0, 0], I: [0.001, (mass * L ** 2) / 12, (mass * L ** 2) / 12] });
      const [from] = k === 0 ? [j1.frame_b] : [j2.frame_b];
      m.connect(from, bar.frame_a);
      m.connect(from, body.frame_a);
      if (k === 0) m.connect(bar.frame_b, j2.frame_a);
    }
  }
  return m;
}

describe("a composite's own frames are outside connectors inside it", () => {
  it('the composite double pendulum has the accelerations of the flat one, in both modes', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const [a, b] = [pendulum(true), pendulum(false)].map((m) => {
        const c = compile(m, { mode });
        const dx = new Float64Array(4);
        c.derivatives(0, c.x0(), dx);
        return [c.signal('der(j1.qd)'), c.signal('der(j2.qd)')];
      });
      expect(Math.abs(a[0])).toBeGreaterThan(1);
      expect(a[0]).toBeCloseTo(b[0], 12);
      expect(a[1]).toBeCloseTo(b[1], 12);
    }
  });
  it("its frame's force is the sum of its parts' (the outer set) with the sign of Newton's third law", () => {
    const c = compile(pendulum(true));
    c.derivatives(0, c.x0(), new Float64Array(4));
    for (const i of [1, 2, 3]) {
      expect(c.signal(`l1.frame_a.f[${i}]`)).toBeCloseTo(c.signal(`l1.bar.frame_a.f[${i}]`) + c.signal(`l1.body.frame_a.f[${i}]`), 12);
      expect(c.signal(`l1.frame_a.f[${i}]`)).toBeCloseTo(-c.signal(`j1.frame_b.f[${i}]`), 12);
    }
  });
});
