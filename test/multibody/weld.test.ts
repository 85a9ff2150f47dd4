// The Weld cut (weld.ts): a chain welded back to the world at its start pose
// cannot move, so under gravity every joint acceleration is 0, and the
// vertical forces at its two ends (the first joint's and the weld's) carry
// its weight m g. In a planar chain the weld keeps 3 constraints (the others are
// implied), in a spatial one all 6; both forms.
import { describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { Mechanism, Weld } from '../../src/library/multibody/index.ts';
import type { Frame } from '../../src/library/multibody/frame.ts';

type V = readonly [number, number, number];

/** links on hinges about the axes, bars between them, the chain's end welded to the world where it starts */
function weldedChain(axes: readonly V[], bars: readonly V[]): Mechanism {
  const m = new Mechanism('welded', { gravity: [0, 0, -9.81] });
  let at: Frame = m.world.frame_b;
  axes.forEach((axis, i) => {
    const j = m.revolute(`j${i + 1}`, { axis: [...axis] });
    const link = m.body(`link${i + 1}`, { m: 1 + i, rcm: [0.15, 0.02 * i, 0], I: [0.01, 0.01, 0.01, 0, 0, 0] });
    const bar = m.bar(`bar${i + 1}`, { r: [...bars[i]] });
    m.connect(at, j.frame_a);
    m.connect(j.frame_b, link.frame_a);
    m.connect(j.frame_b, bar.frame_a);
    at = bar.frame_b;
  });
  // the world point where the chain's end starts: a bar from the world to it
  const end = bars.reduce((p, b) => [p[0] + b[0], p[1] + b[1], p[2] + b[2]], [0, 0, 0]);
  const ground = m.bar('ground', { r: end as [number, number, number] });
  m.connect(m.world.frame_b, ground.frame_a);
  const weld = m.add(new Weld('weld'));
  m.connect(at, weld.frame_a);
  m.connect(ground.frame_b, weld.frame_b);
  return m;
}

const chains: [string, V[], V[], number][] = [
  [
    'planar: three hinges about y',
    [
      [0, 1, 0],
      [0, 1, 0],
      [0, 1, 0],
    ],
    [
      [0.3, 0, 0.1],
      [0.3, 0, -0.2],
      [0.2, 0, 0.1],
    ],
    3,
  ],
  [
    'spatial: six hinges about skew axes',
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
      [0, 1, 1],
      [1, 0, 1],
    ],
    [
      [0.3, 0, 0],
      [0, 0.3, 0],
      [0, 0, 0.3],
      [0.2, -0.1, 0],
      [0, 0.2, -0.1],
      [-0.1, 0, 0.2],
    ],
    6,
  ],
];

describe('Weld: a chain welded to the world at its start pose stays there', () => {
  for (const [what, axes, bars, constraints] of chains) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${what} (${constraints} constraints); ${mode}: qdd = 0, and the world and the weld carry m g`, () => {
        const c = compile(weldedChain(axes, bars), { mode });
        expect(c.report.kinematics!.loops[0]).toMatchObject({ cut: 'weld', constraints, planar: constraints === 3 });
        c.derivatives(0, c.x0(), new Float64Array(c.stateNames.length));
        for (let i = 1; i <= axes.length; i++) expect(Math.abs(c.signal(`j${i}.qdd`))).toBeLessThan(1e-12);
        // the chain is held at both ends, by the first joint and by the weld: their vertical forces carry its weight
        const mass = axes.reduce((s, _, i) => s + 1 + i, 0);
        expect(Math.abs(c.signal('j1.frame_a.f[3]') + c.signal('weld.frame_b.f[3]'))).toBeCloseTo(mass * 9.81, 9);
      });
    }
  }
});
