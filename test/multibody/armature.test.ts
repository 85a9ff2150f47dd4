// Armature (a rotor's inertia reflected onto a joint coordinate, MuJoCo's
// dof_armature): against closed forms and energy. A pendulum under gravity
// with armature a turns as (m L^2 + Izz + a) qdd = -m g L cos q + tau, and
// its kinetic energy is 1/2 (m L^2 + Izz + a) qd^2; a slider's mass gains a;
// a chain of a hinge, a slide and a ball joint, each with armature, keeps
// its energy.total over a run (RK4's drift falls ~16-fold with half the
// step), both forms; inverse dynamics gives back the torque.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { simulate } from '../../src/sim/simulate.ts';

const MODES = ['torn', 'relaxed'] as const;

function pendulum(armature: number): Mechanism {
  const m = new Mechanism('pendulum', { gravity: [0, -9.81, 0] });
  const j = m.revolute('j', { axis: [0, 0, 1], armature });
  const rod = m.body('rod', { m: 2, rcm: [0.7, 0, 0], I: [0.01, 0.05, 0.05] });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, rod.frame_a);
  return m;
}

describe('armature on a coordinate', () => {
  it('pendulum: (m L^2 + Izz + a) qdd = -m g L cos q + tau, T = 1/2 (m L^2 + Izz + a) qd^2 (1e-12), both forms', () => {
    const a = 0.3,
      I = 2 * 0.7 ** 2 + 0.05;
    for (const mode of MODES) {
      const c = compile(pendulum(a), { mode });
      for (const [q, qd, tau] of [
        [0.3, -2, 0],
        [-2.5, 0.7, 1.5],
        [1.9, 4, -3],
      ]) {
        c.setInput('j.tau', tau);
        const dx = new Float64Array(2);
        c.derivatives(0, Float64Array.of(q, qd), dx);
        expect(dx[1]).toBeCloseTo((-2 * 9.81 * 0.7 * Math.cos(q) + tau) / (I + a), 12);
        expect(c.signal('energy.kinetic')).toBeCloseTo(0.5 * (I + a) * qd * qd, 12);
      }
    }
  });

  it('slider: its mass gains the armature, (m + a) qdd = f', () => {
    const m = new Mechanism('slider', { gravity: [0, 0, 0] });
    const j = m.prismatic('j', { axis: [1, 0, 0], armature: 0.5 });
    const b = m.body('b', { m: 1.5, rcm: [0, 0, 0], I: [0.01, 0.01, 0.01] });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, b.frame_a);
    for (const mode of MODES) {
      const c = compile(m, { mode });
      c.setInput('j.tau', 4);
      const dx = new Float64Array(2);
      c.derivatives(0, Float64Array.of(0.2, 1), dx);
      expect(dx[1]).toBeCloseTo(4 / 2, 12);
    }
  });

  it('inverse dynamics gives back the torque of forward dynamics with armature', () => {
    const forward = compile(pendulum(0.3));
    forward.setInput('j.tau', 1.2);
    const dx = new Float64Array(2);
    forward.derivatives(0, Float64Array.of(0.4, -1), dx);
    const inverse = compile(pendulum(0.3), { problem: 'inverse' });
    inverse.setInput('j.qdd', dx[1]);
    inverse.derivatives(0, Float64Array.of(0.4, -1), new Float64Array(2));
    expect(inverse.signal('j.tau')).toBeCloseTo(1.2, 10);
  });
});

/** a hinge, a slide and a ball joint in a chain, each with armature, under gravity */
function chain(k = 1): Mechanism {
  const m = new Mechanism('chain', { gravity: [0, -9.81, 0] });
  const hinge = m.revolute('hinge', { axis: [0, 0, 1], armature: 0.2 * k, q: 0.4, qd: 1 });
  const b1 = m.body('b1', { m: 1, rcm: [0.3, 0, 0], I: [0.01, 0.02, 0.03] });
  const slide = m.prismatic('slide', { axis: [1, 0, 0], armature: 0.5 * k, q: 0.1, qd: -0.5, c: 20 });
  const b2 = m.body('b2', { m: 0.5, rcm: [0, 0.1, 0], I: [0.004, 0.005, 0.006] });
  const ball = m.ball('ball', { armature: 0.01 * k, Q: [0.9, 0.1, 0.3, -0.3], w: [1, -2, 0.5] });
  const b3 = m.body('b3', { m: 0.3, rcm: [0.1, -0.2, 0.05], I: [0.002, 0.003, 0.004] });
  m.connect(m.world.frame_b, hinge.frame_a);
  m.connect(hinge.frame_b, b1.frame_a);
  m.connect(hinge.frame_b, slide.frame_a);
  m.connect(slide.frame_b, b2.frame_a);
  m.connect(slide.frame_b, ball.frame_a);
  m.connect(ball.frame_b, b3.frame_a);
  return m;
}

/** a body on a free joint with armature, tumbling under gravity, with a pendulum on a hinge below it */
function floating(k = 1): Mechanism {
  const m = new Mechanism('floating', { gravity: [0, 0, -9.81] });
  const free = m.free('free', { armature: 0.05 * k, v: [0.3, -0.2, 1], w: [2, -1, 3], Q: [0.8, 0.2, 0.4, 0.4] });
  const base = m.body('base', { m: 2, rcm: [0.05, 0, 0], I: [0.02, 0.03, 0.04] });
  const hinge = m.revolute('hinge', { axis: [0, 1, 0], armature: 0.1 * k, qd: 2 });
  const link = m.body('link', { m: 0.4, rcm: [0, 0, -0.3], I: [0.005, 0.005, 0.001] });
  m.connect(m.world.frame_b, free.frame_a);
  m.connect(free.frame_b, base.frame_a);
  m.connect(free.frame_b, hinge.frame_a);
  m.connect(hinge.frame_b, link.frame_a);
  return m;
}

describe('armature keeps energy.total over a run', () => {
  for (const mode of MODES) {
    it(`a free joint (armature on its six coordinates) with a hinge below (${mode}): drift is RK4's`, () => {
      const drift = (step: number) => {
        const E = simulate(compile(floating(), { mode }), { stop: 1, step, interval: 0.01, signals: ['energy.total'] }).get('energy.total');
        return Math.max(...Array.from(E, (e) => Math.abs(e - E[0])));
      };
      const [coarse, fine] = [drift(2e-3), drift(1e-3)];
      expect(coarse).toBeLessThan(1e-6);
      expect(coarse / fine).toBeGreaterThan(10);
    });
  }

  it("a free joint's rotors: 1/2 a (|v|^2 + |w|^2) + 1/2 a_h qd^2 more kinetic energy than without armature (1e-14)", () => {
    const [withRotors, without] = [compile(floating()), compile(floating(0))];
    for (const c of [withRotors, without]) c.derivatives(0, withRotors.x0(), new Float64Array(withRotors.stateNames.length));
    const rotors = 0.5 * 0.05 * (0.09 + 0.04 + 1 + 4 + 1 + 9) + 0.5 * 0.1 * 4;
    expect(withRotors.signal('energy.kinetic') - without.signal('energy.kinetic')).toBeCloseTo(rotors, 14);
  });

  for (const mode of MODES) {
    it(`hinge, slide and ball joint with armature (${mode}): drift is RK4's, ~16-fold less at half the step`, () => {
      const drift = (step: number) => {
        const res = simulate(compile(chain(), { mode }), { stop: 1, step, interval: 0.01, signals: ['energy.total', 'energy.kinetic'] });
        const E = res.get('energy.total');
        return { drift: Math.max(...Array.from(E, (e) => Math.abs(e - E[0]))), kinetic: Math.max(...res.get('energy.kinetic')) };
      };
      const [coarse, fine] = [drift(2e-3), drift(1e-3)];
      expect(coarse.kinetic).toBeGreaterThan(0.1);
      expect(coarse.drift).toBeLessThan(1e-6);
      expect(coarse.drift / fine.drift).toBeGreaterThan(10);
    });
  }

  it('energy.kinetic holds the rotors: 1/2 sum a qd^2 more than the same chain without armature, at the same state (1e-14)', () => {
    const [withRotors, without] = [compile(chain()), compile(chain(0))];
    for (const c of [withRotors, without]) c.derivatives(0, withRotors.x0(), new Float64Array(withRotors.stateNames.length));
    // hinge qd 1, slide qd -0.5, ball w (1, -2, 0.5)
    const rotors = 0.5 * (0.2 * 1 + 0.5 * 0.25 + 0.01 * 5.25);
    expect(withRotors.signal('energy.kinetic') - without.signal('energy.kinetic')).toBeCloseTo(rotors, 14);
  });
});
