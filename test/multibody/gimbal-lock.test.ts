// Never silently wrong at gimbal lock (issue 28): a Cardan spherical joint
// (Rx(q1) Ry(q2) Rz(q3)) is singular where q[2] = +-90 degrees; a fixed step
// across it used to gain energy (45% on a free link, exit 0) or stop with a
// hint about zero masses. Run time watches cos q[2] (pose-watch.ts). The
// oracles: the energy of a free rotation without gravity, constant; and a
// run of the same body at a step ten times shorter. Every run either stops
// with the typed gimbal-lock error naming the joint, with its energy kept
// until then, or follows the short-step run.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SimulationError } from '../../src/errors.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { prng } from './random-tree.ts';
import { drift, rk4Run } from './rk4-run.ts';

const GIMBAL = /^j \(Cardan angles q\[1\.\.3\] about x, y, z\) passed or came near gimbal lock, j\.q\[2\] = \+-90 degrees/;

/** a free link on a Cardan joint, no gravity: its kinetic energy is constant */
function freeLink(o: { q: number[]; qd: number[]; r?: [number, number, number]; diameter?: number }): Mechanism {
  const m = new Mechanism('gimbal', { gravity: [0, 0, 0] });
  const j = m.spherical('j', { q: o.q, qd: o.qd });
  const link = m.bodyCylinder('link', { r: o.r ?? [0.5, 0, 0], diameter: o.diameter ?? 0.05 });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, link.frame_a);
  return m;
}

interface Run {
  energy: number[];
  q2: number[];
  error?: Error;
}

/** RK4 at step h: the energy and q[2] at every step */
function rk4(c: CompiledModel, h: number, stop: number): Run {
  const run = rk4Run(c, h, stop, ['energy.total', 'j.q[2]']);
  return { energy: run.signals['energy.total'], q2: run.signals['j.q[2]'], error: run.error };
}

describe('gimbal lock of a Cardan spherical joint', () => {
  // the issue's case: q = [0, 1.2, 0], qd = [1e-4, 2, 0]; spinning about its y axis, q[2] reaches pi/2 at t ~ 0.185
  const issue = () => freeLink({ q: [0, 1.2, 0], qd: [1e-4, 2, 0] });

  it('a free link through q[2] = 90 degrees stops with the gimbal-lock error at every step, both forms, energy kept before', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const c = compile(issue(), { mode });
      for (const h of [1e-4, 1e-3, 5e-3, 1e-2]) {
        const run = rk4(c, h, 0.4);
        expect(run.error, `${mode} h = ${h}`).toBeInstanceOf(SimulationError);
        expect(run.error!.message).toMatch(GIMBAL);
        expect((run.error as SimulationError).details.hint).toMatch(/quaternion ball joint/);
        expect(Math.abs(run.q2[run.q2.length - 1] - Math.PI / 2)).toBeLessThan(2 * h * 2 + 1e-3);
        expect(drift(run.energy), `${mode} h = ${h}`).toBeLessThan(1e-5); // a jump across it gained 45%
      }
      expect(() => simulate(c, { stop: 0.4, step: 1e-3, integrator: 'adaptive' })).toThrow(GIMBAL);
    }
  });

  it('a Cardan joint that stays away from 90 degrees runs, and one that starts at it stops at once', () => {
    const away = compile(freeLink({ q: [0.3, 0.2, -0.4], qd: [1, 0.5, 2] }));
    const run = rk4(away, 1e-3, 0.5);
    expect(run.error).toBeUndefined();
    expect(Math.max(...run.q2.map(Math.abs))).toBeLessThan(1.2);
    expect(drift(run.energy)).toBeLessThan(1e-9);
    // at gimbal lock the mass matrix is singular: the error names the pose, not a zero mass
    const at = compile(freeLink({ q: [0, Math.PI / 2, 0], qd: [0, 1, 0] }));
    expect(() => at.derivatives(0, at.x0(), new Float64Array(6))).toThrow(GIMBAL);
  });

  it('fuzzed: 20 seeded free links and spins, every run stops with the gimbal-lock error or follows a run at h / 10', () => {
    const random = prng(1928);
    const outcomes = { stopped: 0, followed: 0 };
    for (let i = 0; i < 20; i++) {
      const r: [number, number, number] = [0.2 + 0.5 * random(), 0.2 * (random() - 0.5), 0.2 * (random() - 0.5)];
      // even cases aimed at the pose (q[2] within 0.3 to 0.6 of +-90 degrees, turning towards it), odd ones anywhere
      const side = random() < 0.5 ? 1 : -1,
        aimed = i % 2 === 0;
      const q = [random() - 0.5, aimed ? side * (Math.PI / 2 - 0.3 - 0.3 * random()) : 1.6 * (random() - 0.5), random() - 0.5];
      const qd = [2 * (random() - 0.5), (aimed ? side : random() < 0.5 ? 1 : -1) * (0.5 + 2.5 * random()), 2 * (random() - 0.5)];
      const h = [1e-3, 2e-3, 5e-3][i % 3];
      const label = `case ${i}: r ${r} q ${q} qd ${qd} h ${h}`;
      const c = compile(freeLink({ q, qd, r, diameter: 0.04 + 0.1 * random() }));
      const run = rk4(c, h, 0.5);
      if (run.error) {
        expect(run.error.message, label).toMatch(GIMBAL);
        expect(Math.abs(Math.cos(run.q2[run.q2.length - 1])), label).toBeLessThan(0.2);
        expect(drift(run.energy), label).toBeLessThan(1e-4);
        outcomes.stopped++;
      } else {
        const fine = rk4(c, h / 10, 0.5);
        expect(fine.error, label).toBeUndefined();
        expect(drift(run.energy), label).toBeLessThan(1e-4);
        expect(Math.abs(run.q2[run.q2.length - 1] - fine.q2[fine.q2.length - 10]), label).toBeLessThan(1e-3);
        outcomes.followed++;
      }
    }
    expect(outcomes.stopped).toBeGreaterThanOrEqual(5);
    expect(outcomes.followed).toBeGreaterThanOrEqual(8);
  });
});
