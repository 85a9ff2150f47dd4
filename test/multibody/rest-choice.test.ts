// The joints a kinematic loop determines are chosen by rank at the start
// pose (topology.ts, start-pose.ts): the builder's order (deepest first) is
// kept, but a set of whole joints whose columns of the cut's position
// constraints are dependent is passed over, because Newton cannot close the
// loop with it anywhere near the start.
//
// The spatial loop below, closed at q = 0 (positions in m):
//
//   world -j1 (z)- [0.5,0,0] -j2 (y)- [0,0.5,0] -j3 (x)- [0,0,0.5] -j4 (z)- [0.3,0,0] -j5 (x)- [0.3,0,0] -c1 (ball, cut)- ground bar [1.1,0.5,0.5] - world
//
// Hand-derived columns omega x (p_cut - o_joint) at p_cut = (1.1, 0.5, 0.5):
//   j5 (x through the cut point) 0;  j4 (0, 0.6, 0);  j3 (0, -0.5, 0);  j2 (0.5, 0, -0.6);  j1 (-0.5, 1.1, 0)
// The deepest three, {j5, j4, j3}, have rank 1; {j4, j3, *} rank 2; the first
// set of rank 3 in the builder's order is {j4, j2, j1}, leaving j5 and j3 as
// the state joints.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { ModelError } from '../../src/errors.ts';
import { components } from '../../src/model/index.ts';
import { BodyCylinder, Mechanism } from '../../src/library/multibody/index.ts';
import { cylinderSignals, energyAt, gapAt, gapSignals } from './loop-helpers.ts';

type V3 = [number, number, number];

function spatialLoop(): Mechanism {
  const m = new Mechanism('rest-choice');
  const links: [string, V3, V3][] = [
    ['j1', [0, 0, 1], [0.5, 0, 0]],
    ['j2', [0, 1, 0], [0, 0.5, 0]],
    ['j3', [1, 0, 0], [0, 0, 0.5]],
    ['j4', [0, 0, 1], [0.3, 0, 0]],
    ['j5', [1, 0, 0], [0.3, 0, 0]],
  ];
  let at = m.world.frame_b;
  for (const [name, axis, r] of links) {
    const j = m.revolute(name, { axis, qd: name === 'j5' ? 2 : name === 'j3' ? 0.5 : 0 });
    const b = m.bodyCylinder(`b${name.slice(1)}`, { r, diameter: 0.05, density: 7700 });
    m.connect(at, j.frame_a);
    m.connect(j.frame_b, b.frame_a);
    at = b.frame_b;
  }
  const cut = m.spherical('c1', { cut: true });
  const ground = m.bar('ground', { r: [1.1, 0.5, 0.5] });
  m.connect(at, cut.frame_a);
  m.connect(m.world.frame_b, ground.frame_a);
  m.connect(ground.frame_b, cut.frame_b);
  return m;
}

describe('rest joints chosen by rank at the start pose', () => {
  it('passes over the deepest joints when their columns are dependent: rest j1, j2, j4 (hand-derived columns)', () => {
    const k = compile(spatialLoop()).report.kinematics!;
    expect(k.restJoints.slice().sort()).toEqual(['j1', 'j2', 'j4']);
    expect(k.stateJoints.slice().sort()).toEqual(['j3', 'j5']);
  });

  it('the loop stays closed, energy is conserved, and torn and relaxed agree over 0.2 s (the loop approaches a singular position of these rest joints near 0.28 s)', () => {
    const m = spatialLoop();
    const cylinders = components(m).filter((c): c is BodyCylinder => c instanceof BodyCylinder);
    const runs = (['torn', 'relaxed'] as const).map((mode) => {
      const c = compile(spatialLoop(), { mode });
      return simulate(c, { stop: 0.2, step: 1e-3, interval: 0.01, signals: [...c.stateNames, ...cylinders.flatMap(cylinderSignals), ...gapSignals('c1')] });
    });
    for (const res of runs) {
      const e0 = energyAt(res, cylinders, 0);
      for (let i = 0; i < res.length; i++) {
        expect(gapAt(res, 'c1', i)).toBeLessThan(1e-9);
        expect(Math.abs(energyAt(res, cylinders, i) - e0)).toBeLessThan(1e-6 * Math.max(1, Math.abs(e0)));
      }
    }
    for (const name of ['j3.q', 'j5.q']) {
      const [a, b] = runs.map((r) => r.get(name));
      expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeLessThan(1e-9);
    }
  });

  it('a loop stretched straight at the start position cannot be closed: a ModelError naming the loop', () => {
    // world -j1 (z)- [0.5,0,0] -j2 (ball)- [0.5,0,0] -c1 (ball, cut)- bar [0.8,0.3,0] - world:
    // at q = 0 the cut point (1, 0, 0) lies on the line through j1 and j2, and no joint moves it along x
    const m = new Mechanism('ball-ball');
    const j1 = m.revolute('j1', { axis: [0, 0, 1] });
    const b1 = m.bodyCylinder('b1', { r: [0.5, 0, 0], diameter: 0.05, density: 7700 });
    const j2 = m.spherical('j2');
    const b2 = m.bodyCylinder('b2', { r: [0.5, 0, 0], diameter: 0.05, density: 7700 });
    const c1 = m.spherical('c1', { cut: true });
    const ground = m.bar('ground', { r: [0.8, 0.3, 0] });
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, b1.frame_a);
    m.connect(b1.frame_b, j2.frame_a);
    m.connect(j2.frame_b, b2.frame_a);
    m.connect(b2.frame_b, c1.frame_a);
    m.connect(m.world.frame_b, ground.frame_a);
    m.connect(ground.frame_b, c1.frame_b);
    let error: unknown;
    try {
      compile(m);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/^the kinematic loop \(c1, j2, j1\) cut at c1 cannot be closed by its tree joints/);
  });

  it('closes an RSSR linkage with single axes of its ball joint when no set of whole joints can (two axes of j2 and a revolute)', () => {
    // world -j1 (z)- crank [0.2,0,0] -j2 (ball)- coupler [0,0,0.4] -c1 (ball, cut)- rocker end;
    // world - bar [0.2,0.25,0.4] -j3 (x)- rocker [0,-0.25,0]: closed at q = 0. Whole joints: j2 alone
    // moves the cut point only on a sphere (rank 2), j1 and j3 are one coordinate each. Single axes,
    // deepest first: j2[1] and j2[2] move the point across the coupler (x, y), j2[3] spins the coupler
    // about itself (column 0, passed over), j3 moves it along z: rest j2[1], j2[2], j3; the states are
    // the crank j1 and the coupler's spin j2[3]
    const m = new Mechanism('rssr');
    const j1 = m.revolute('j1', { axis: [0, 0, 1], qd: 1 });
    const crank = m.bodyCylinder('crank', { r: [0.2, 0, 0], diameter: 0.03, density: 7700 });
    const j2 = m.spherical('j2', { qd: [0, 0, 3] });
    const coupler = m.bodyCylinder('coupler', { r: [0, 0, 0.4], diameter: 0.02, density: 7700 });
    const c1 = m.spherical('c1', { cut: true });
    const pivot = m.bar('pivot', { r: [0.2, 0.25, 0.4] });
    const j3 = m.revolute('j3', { axis: [1, 0, 0] });
    const rocker = m.bodyCylinder('rocker', { r: [0, -0.25, 0], diameter: 0.03, density: 7700 });
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, crank.frame_a);
    m.connect(crank.frame_b, j2.frame_a);
    m.connect(j2.frame_b, coupler.frame_a);
    m.connect(coupler.frame_b, c1.frame_a);
    m.connect(m.world.frame_b, pivot.frame_a);
    m.connect(pivot.frame_b, j3.frame_a);
    m.connect(j3.frame_b, rocker.frame_a);
    m.connect(rocker.frame_b, c1.frame_b);
    const runs = (['torn', 'relaxed'] as const).map((mode) => {
      const c = compile(m, { mode });
      const k = c.report.kinematics!;
      expect(k.restCoordinates.slice().sort()).toEqual(['j2[1]', 'j2[2]', 'j3']);
      expect(c.stateNames.filter((n) => /\.q(\[|$)/.test(n))).toEqual(['j1.q', 'j2.q[3]']);
      // 0.2 s: the crank falls and near 0.27 s reaches its extreme angle, a dead point of this choice (j1 a state)
      return simulate(c, {
        stop: 0.2,
        step: 1e-3,
        interval: 0.01,
        signals: [...c.stateNames, ...[crank, coupler, rocker].flatMap(cylinderSignals), ...gapSignals('c1')],
      });
    });
    for (const res of runs) {
      const e0 = energyAt(res, [crank, coupler, rocker], 0);
      for (let i = 0; i < res.length; i++) {
        expect(gapAt(res, 'c1', i)).toBeLessThan(1e-9);
        expect(Math.abs(energyAt(res, [crank, coupler, rocker], i) - e0)).toBeLessThan(1e-6 * Math.max(1, Math.abs(e0)));
      }
    }
    const names = runs[0].names.filter((n) => /^j\d\.q(\[|$)/.test(n));
    expect(names.length).toBe(2);
    for (const name of names) {
      const [a, b] = runs.map((r) => r.get(name as never));
      expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeLessThan(1e-9);
    }
    // on to 0.3 s: at its extreme angle the crank (a state) cannot move on, and the error says why instead of a
    // bare "did not converge": the loop stops closing past a position near a singular one, or (signWatch) the
    // determinant of its constraint Jacobian turns back from zero within a step as the crank reaches its extreme
    const c = compile(m);
    expect(() => simulate(c, { stop: 0.3, step: 1e-3, interval: 0.01 })).toThrow(
      /cut at c1 .* (does not close at time 0\.2\d+ .*near a singular one.*dead point|may have left its assembly branch between time 0\.2\d+ and 0\.2\d+.*came near a singular position)/,
    );
    // it moves: the crank turns and the coupler spins
    expect(
      Math.abs(runs[0].get('j1.q' as never).at(-1)! - runs[0].get('j1.q' as never)[0]) +
        Math.abs(runs[0].get(names.find((n) => n.startsWith('j2'))! as never).at(-1)!),
    ).toBeGreaterThan(0.1);
  });
});
