// Loops cut at a prismatic joint (prismatic.ts, cut.ts): the offset
// slider-crank (mechanisms/slidercrank.ts, the planar prismatic cut) against
// its closed-form position, velocity and acceleration and its energy, and
// the tearing paper's four-bar (R S U P, mechanisms/fourbar.ts' geometry)
// cut at its slider instead of its ball joint (the spatial prismatic cut,
// five constraints) against the closed-form position analysis and
// Lagrangian oracle of test/oracles/fourbar.ts and against the four-bar cut
// at the ball joint: the same motion, formulated with other constraints.
// The cuts' constraints hold at random states on position (to Newton's
// 1e-12 and its rounding), velocity and acceleration level; torn and
// relaxed agree. (The KKT oracle's cases for
// both cuts, with drives and springs on them: joint-oracle.test.ts.)
import { describe, expect, it } from 'vitest';
import buildFourbar from '../../mechanisms/fourbar.ts';
import buildSliderCrank, { parameters as slider } from '../../mechanisms/slidercrank.ts';
import { compile } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { BodyCylinder, Mechanism, STANDARD_GRAVITY } from '../../src/library/multibody/index.ts';
import { components } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import * as fourbar from '../oracles/fourbar.ts';
import { cylinderSignals, energyAt } from './loop-helpers.ts';
import { prng } from './random-tree.ts';

const MODES = ['torn', 'relaxed'] as const;
const W0 = (300 * Math.PI) / 180;

/** the slider's position along the guide as a function of the crank angle, and its first two derivatives */
function sliderKinematics(theta: number) {
  const { r, l, e } = slider;
  const g = r * Math.sin(theta) - e,
    dg = r * Math.cos(theta),
    ddg = -r * Math.sin(theta);
  const S = Math.sqrt(l * l - g * g);
  return {
    x: r * Math.cos(theta) + S,
    dx: -r * Math.sin(theta) - (g * dg) / S,
    ddx: -r * Math.cos(theta) - (dg * dg + g * ddg) / S - (g * g * dg * dg) / S ** 3,
  };
}

const frameVector = (c: CompiledModel, frame: string, v: string) => [1, 2, 3].map((i) => c.signal(`${frame}.${v}[${i}]`));
const frameMatrix = (c: CompiledModel, frame: string) => [1, 2, 3].map((i) => [1, 2, 3].map((j) => c.signal(`${frame}.R[${i}][${j}]`)));
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const minus = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);
const column = (R: number[][], j: number) => R.map((row) => row[j]);
const maxAbs = (v: number[]) => Math.max(...v.map(Math.abs));

/** the cut joint's frames at the compiled model's last evaluation: relative position, velocity, acceleration, turn */
function cutFrames(c: CompiledModel, cut: string) {
  const [fa, fb] = [`${cut}.frame_a`, `${cut}.frame_b`];
  const Ra = frameMatrix(c, fa),
    Rb = frameMatrix(c, fb);
  return {
    Ra,
    turn: maxAbs(Ra.flatMap((row, i) => row.map((x, j) => x - Rb[i][j]))),
    d: minus(frameVector(c, fb, 'r'), frameVector(c, fa, 'r')),
    v: minus(frameVector(c, fb, 'v'), frameVector(c, fa, 'v')),
    a: minus(frameVector(c, fb, 'a'), frameVector(c, fa, 'a')),
    w: minus(frameVector(c, fb, 'w'), frameVector(c, fa, 'w')),
    z: minus(frameVector(c, fb, 'z'), frameVector(c, fa, 'z')),
  };
}

/**
 * The prismatic cut's constraints at the last evaluation: no offset along the normals of the guide (columns of
 * frame_a's R) to Newton's 1e-12 and its rounding, on position, velocity and acceleration level (the last
 * scaled by 1 + w^2, w the crank speed), and no turn
 */
function expectCutHolds(c: CompiledModel, cut: string, normals: number[], w: number, accuracy: number): void {
  const f = cutFrames(c, cut);
  for (const u of normals.map((j) => column(f.Ra, j))) {
    expect(Math.abs(dot(u, f.d))).toBeLessThan(1e-11);
    expect(Math.abs(dot(u, f.v))).toBeLessThan(1e-12);
    expect(Math.abs(dot(u, f.a))).toBeLessThan(accuracy * (1 + w * w));
  }
  expect(f.turn).toBeLessThan(1e-11);
  expect(maxAbs(f.w)).toBeLessThan(1e-12);
  expect(maxAbs(f.z)).toBeLessThan(accuracy * (1 + w * w));
}

describe('the offset slider-crank cut at its slider (mechanisms/slidercrank.ts, planar prismatic cut)', () => {
  it('the loop is planar: the slider is its cut with 2 constraints, the crank the one state joint', () => {
    const k = compile(buildSliderCrank()).report.kinematics!;
    expect(k.loops).toEqual([
      { cut: 'j4', chosenBy: 'user', constraints: 2, planar: true, joints: ['j1', 'j2', 'j3'], restJoints: ['j3', 'j2'], restCoordinates: ['j3', 'j2'] },
    ]);
    expect(k.stateJoints).toEqual(['j1']);
  });

  it('j4.q, j4.qd, j4.qdd follow the closed form x(theta) at random crank angles and speeds; the cut holds on all three levels', () => {
    const rnd = prng(28);
    for (const mode of MODES) {
      const c = compile(buildSliderCrank(), { mode });
      // small steps from the start so that Newton's warm start stays on the assembled branch
      let theta = slider.theta;
      for (let k = 0; k < 40; k++) {
        theta += 0.3 * rnd();
        const w = -8 + 16 * rnd();
        const dx = new Float64Array(2);
        c.derivatives(0, Float64Array.of(theta, w), dx);
        const alpha = dx[1],
          s = sliderKinematics(theta);
        expect(Math.abs(c.signal('j4.q') - s.x)).toBeLessThan(1e-11);
        expect(Math.abs(c.signal('j4.qd') - s.dx * w)).toBeLessThan(1e-11);
        expect(Math.abs(c.signal('j4.qdd') - (s.ddx * w * w + s.dx * alpha))).toBeLessThan(1e-9 * (1 + w * w));
        // the cut: no offset normal to the guide in the plane (y of frame_a), no turn
        expectCutHolds(c, 'j4', [1], w, 1e-9);
      }
    }
  });

  it('undriven and undamped, it conserves its energy (links, slider and the spring on the slider) over 5 s; torn and relaxed agree', () => {
    const runs = MODES.map((mode) => {
      const m = buildSliderCrank({ c: 40, x0: 0.45 });
      const cylinders = components(m).filter((k): k is BodyCylinder => k instanceof BodyCylinder);
      const res = simulate(compile(m, { mode }), {
        stop: 5,
        step: 1e-3,
        interval: 0.01,
        signals: ['j1.q', 'j4.q', 'j4.qd', ...cylinders.flatMap(cylinderSignals)],
      });
      // the energy from the frames (loop-helpers.ts), the slider's 1/2 m v^2 and its spring: not Kron's energy signals
      const energy = (k: number) =>
        energyAt(res, cylinders, k) +
        0.5 * slider.ms * res.get('j4.qd')[k] ** 2 +
        slider.ms * STANDARD_GRAVITY * slider.e +
        0.5 * 40 * (res.get('j4.q')[k] - 0.45) ** 2;
      const e0 = energy(0);
      let drift = 0;
      for (let k = 0; k < res.length; k++) drift = Math.max(drift, Math.abs(energy(k) - e0) / e0);
      expect(drift).toBeLessThan(1e-7);
      // the slider stays on x(theta) along the run
      for (let k = 0; k < res.length; k++) expect(Math.abs(res.get('j4.q')[k] - sliderKinematics(res.get('j1.q')[k]).x)).toBeLessThan(1e-11);
      return res;
    });
    const [t, r] = runs.map((res) => res.get('j1.q'));
    expect(Math.max(...t.map((v, k) => Math.abs(v - r[k])))).toBeLessThan(1e-9);
    // the crank turns over: the run passes every crank angle
    expect(runs[0].final('j1.q') - slider.theta).toBeGreaterThan(4 * Math.PI);
  });
});

/** mechanisms/fourbar.ts with the loop cut at its slider j4 instead of its ball joint j2 */
function fourbarCutAtSlider(): Mechanism {
  const m = new Mechanism('fourbar-slider-cut');
  const look = { diameter: 0.05, density: 7700 };
  const j1 = m.revolute('j1', { axis: [1, 0, 0], q: 0, qd: W0, state: true });
  const b1 = m.bodyCylinder('b1', { r: [0, 0.5, 0.1], ...look });
  const j2 = m.spherical('j2');
  const ground = m.bar('ground', { r: [1.2, 0, 0] });
  const j4 = m.prismatic('j4', { axis: [1, 0, 0], q: -0.2, cut: true });
  const b2 = m.bodyCylinder('b2', { r: [0, 0.2, 0], ...look });
  const j3 = m.universal('j3', {
    axes: [
      [0, 1, 0],
      [0, 0, 1],
    ],
  });
  const b3 = m.bodyCylinder('b3', { r: [-1, 0.3, 0.1], ...look });
  for (const [a, b] of [
    [m.world.frame_b, j1.frame_a],
    [j1.frame_b, b1.frame_a],
    [b1.frame_b, j2.frame_a],
    [m.world.frame_b, ground.frame_a],
    [ground.frame_b, j4.frame_a],
    [j4.frame_b, b2.frame_a],
    [b2.frame_b, j3.frame_a],
    [j3.frame_b, b3.frame_a],
    [b3.frame_b, j2.frame_b],
  ] as const)
    m.connect(a, b);
  return m;
}

describe('the four-bar of the tearing paper cut at its slider (spatial prismatic cut)', () => {
  it('the slider is the cut with 5 constraints; the ball and universal joints are determined by the loop', () => {
    const k = compile(fourbarCutAtSlider()).report.kinematics!;
    expect(k.loops).toEqual([
      { cut: 'j4', chosenBy: 'user', constraints: 5, planar: false, joints: ['j1', 'j2', 'j3'], restJoints: ['j3', 'j2'], restCoordinates: ['j3', 'j2'] },
    ]);
  });

  it('start: s = -0.2, ds/dt and the crank acceleration as the oracle and the ball-joint cut', () => {
    const ball = compile(buildFourbar());
    const dxBall = new Float64Array(2);
    ball.derivatives(0, ball.x0(), dxBall);
    for (const mode of MODES) {
      const c = compile(fourbarCutAtSlider(), { mode });
      const dx = new Float64Array(2);
      c.derivatives(0, c.x0(), dx);
      expect(Math.abs(c.signal('j4.q') + 0.2)).toBeLessThan(1e-14);
      expect(Math.abs(c.signal('j4.qd') - fourbar.sliderSpeed(0, W0))).toBeLessThan(1e-9);
      expect(Math.abs(dx[1] - fourbar.acceleration(0, W0)) / dx[1]).toBeLessThan(2e-6);
      expect(Math.abs(dx[1] - dxBall[1])).toBeLessThan(1e-11);
    }
  });

  it('5 s at h = 1e-3: the closed-form position, energy 104.3598 J conserved, the same motion as the ball-joint cut', () => {
    const signals = ['j1.q', 'j1.qd', 'j4.q', 'j3.q[1]', 'j3.q[2]', 'energy.total'];
    const ball = simulate(compile(buildFourbar()), { stop: 5, step: 1e-3, interval: 0.01, signals });
    const wrapped = (x: number) => Math.atan2(Math.sin(x), Math.cos(x));
    const runs = MODES.map((mode) => simulate(compile(fourbarCutAtSlider(), { mode }), { stop: 5, step: 1e-3, interval: 0.01, signals }));
    for (const res of runs) {
      const phi = res.get('j1.q'),
        e = res.get('energy.total');
      expect(Math.abs(e[0] - fourbar.energy(0, W0)) / e[0]).toBeLessThan(1e-9);
      for (let k = 0; k < res.length; k++) {
        const p = fourbar.position(phi[k]);
        expect(Math.abs(res.get('j4.q')[k] - p.s)).toBeLessThan(1e-10);
        expect(Math.abs(wrapped(res.get('j3.q[1]')[k] - p.q1))).toBeLessThan(1e-9);
        expect(Math.abs(wrapped(res.get('j3.q[2]')[k] - p.q2))).toBeLessThan(1e-9);
        expect(Math.abs(e[k] - e[0]) / e[0]).toBeLessThan(1e-7);
      }
      for (const name of ['j1.q', 'j1.qd']) expect(Math.max(...res.get(name).map((v, k) => Math.abs(v - ball.get(name)[k])))).toBeLessThan(1e-8);
    }
    expect(runs[0].final('j1.q')).toBeGreaterThan(4 * Math.PI);
  });

  it('the cut holds at random crank angles and speeds: no offset normal to the guide, no turn, at all three levels', () => {
    const rnd = prng(2801);
    for (const mode of MODES) {
      const c = compile(fourbarCutAtSlider(), { mode });
      let phi = 0;
      for (let k = 0; k < 30; k++) {
        phi += 0.3 * rnd();
        const w = -10 + 20 * rnd();
        c.derivatives(0, Float64Array.of(phi, w), new Float64Array(2));
        // the guide is frame_a's x: no offset along y or z
        expectCutHolds(c, 'j4', [1, 2], w, 1e-10);
        expect(Math.abs(c.signal('j4.q') - fourbar.position(phi).s)).toBeLessThan(1e-11);
      }
    }
  });
});
