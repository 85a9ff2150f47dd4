// Shared by the kinematic-loop tests: total energy of cylinders from frame
// signals, and the position residual of a cut joint.
import type { BodyCylinder } from '../../src/library/multibody/index.ts';
import type { SimulationResult } from '../../src/sim/result.ts';

const G = 9.80665;
const ax = [1, 2, 3];

/** the frame signals of a body cylinder's frame_a (its bar's frame_a) */
export function cylinderSignals(c: BodyCylinder): string[] {
  const f = c.frame_a.path;
  return [...ax.flatMap((i) => ax.map((j) => `${f}.R[${i}][${j}]`)), ...['r', 'v', 'w'].flatMap((k) => ax.map((i) => `${f}.${k}[${i}]`))];
}

/** kinetic plus potential energy (y up) at sample k: T = m/2 |v_cm|^2 + 1/2 w . I_w w, V = m g y_cm */
export function energyAt(res: SimulationResult, cylinders: readonly BodyCylinder[], k: number): number {
  let e = 0;
  for (const c of cylinders) {
    const f = c.frame_a.path;
    const s = (n: string) => res.get(`${f}.${n}`)[k];
    const R = [0, 1, 2].map((i) => [0, 1, 2].map((j) => s(`R[${i + 1}][${j + 1}]`)));
    const vec = (n: string) => [0, 1, 2].map((i) => s(`${n}[${i + 1}]`));
    const [r, v, w] = [vec('r'), vec('v'), vec('w')];
    const body = c.body,
      m = body.mass;
    const rc = [0, 1, 2].map((i) => R[i][0] * body.rcm[0] + R[i][1] * body.rcm[1] + R[i][2] * body.rcm[2]);
    const vc = [v[0] + w[1] * rc[2] - w[2] * rc[1], v[1] + w[2] * rc[0] - w[0] * rc[2], v[2] + w[0] * rc[1] - w[1] * rc[0]];
    // w in body coordinates, then w_b . I w_b
    const wb = [0, 1, 2].map((i) => R[0][i] * w[0] + R[1][i] * w[1] + R[2][i] * w[2]);
    const Iw = [0, 1, 2].map((i) => body.inertia[i][0] * wb[0] + body.inertia[i][1] * wb[1] + body.inertia[i][2] * wb[2]);
    e += 0.5 * m * (vc[0] ** 2 + vc[1] ** 2 + vc[2] ** 2) + 0.5 * (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]) + m * G * (r[1] + rc[1]);
  }
  return e;
}

/** |r_b - r_a| of a cut joint at sample k */
export function gapAt(res: SimulationResult, cut: string, k: number): number {
  return Math.hypot(...ax.map((i) => res.get(`${cut}.frame_b.r[${i}]`)[k] - res.get(`${cut}.frame_a.r[${i}]`)[k]));
}

export function gapSignals(cut: string): string[] {
  return ['a', 'b'].flatMap((s) => ax.map((i) => `${cut}.frame_${s}.r[${i}]`));
}
