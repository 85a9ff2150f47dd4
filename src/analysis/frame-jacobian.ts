// The geometric Jacobian of a frame: [v; w] = J qd, 6 x n, in world
// coordinates, with respect to the coordinates among the states (q with
// der(q) = qd). Columns by the implicit function theorem on the position
// equations (implicit.ts), so a kinematic loop is closed: the joints it
// determines follow the state joints.
//   linear  column i = d r / d q_i
//   angular column i = vee(dR/dq_i R^T)   (R maps frame to world coordinates,
//           so R' = [w]x R, frame.ts)
import { ModelError } from '../errors.ts';
import { withLocalTable } from '../expr/index.ts';
import type { Model } from '../model/index.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { type PointOptions, operatingPoint } from './linearize.ts';
import { type Sensitivities, sensitivities } from './implicit.ts';

export interface FrameJacobian {
  model: string;
  frame: string;
  /** the state coordinates: the columns of J */
  coordinates: string[];
  /** their speeds (der(q) = qd), the velocities J multiplies */
  speeds: string[];
  /** 6 x n: rows v_x, v_y, v_z, w_x, w_y, w_z (world coordinates) */
  J: number[][];
  /** the frame's origin and orientation (frame to world) at the point */
  r: number[];
  R: number[][];
}

/** the coordinates' speeds must be states exactly: der(q) = qd */
const EXACT = 1e-12;

// (model or compiled model, frame name, point) => the frame's geometric Jacobian at the point
export function frameJacobian(model: Model | CompiledModel, frame: string, options: PointOptions = {}): FrameJacobian {
  return withLocalTable(() => {
    const { compiled, point } = operatingPoint(model, options);
    checkFrame(compiled, frame);
    const s = sensitivities(compiled, point, []);
    const pairs = coordinatePairs(s);
    const r = [1, 2, 3].map((k) => s.value(`${frame}.r[${k}]`));
    const R = [1, 2, 3].map((a) => [1, 2, 3].map((b) => s.value(`${frame}.R[${a}][${b}]`)));
    const dr = [1, 2, 3].map((k) => s.row(`${frame}.r[${k}]`));
    const dR = [1, 2, 3].map((a) => [1, 2, 3].map((b) => s.row(`${frame}.R[${a}][${b}]`)));
    const J: number[][] = Array.from({ length: 6 }, () => []);
    for (const { q } of pairs) {
      // W = dR/dq R^T, skew-symmetric; its axial vector is the angular velocity per unit speed
      const W = (a: number, b: number) => dR[a][0][q] * R[b][0] + dR[a][1][q] * R[b][1] + dR[a][2][q] * R[b][2];
      const w = [(W(2, 1) - W(1, 2)) / 2, (W(0, 2) - W(2, 0)) / 2, (W(1, 0) - W(0, 1)) / 2];
      for (let k = 0; k < 3; k++) J[k].push(dr[k][q]), J[3 + k].push(w[k]);
    }
    return {
      model: compiled.report.model,
      frame,
      coordinates: pairs.map((p) => compiled.stateNames[p.q]),
      speeds: pairs.map((p) => compiled.stateNames[p.qd]),
      J, r, R,
    };
  });
}

function checkFrame(compiled: CompiledModel, frame: string): void {
  if (!compiled.hasSignal(`${frame}.r[1]`) || !compiled.hasSignal(`${frame}.R[1][1]`)) {
    const frames = [...new Set(compiled.signalNames().filter((n) => n.endsWith('.R[1][1]')).map((n) => n.slice(0, -'.R[1][1]'.length)))];
    throw new ModelError(`no frame named ${frame}`, {
      variables: [frame],
      hint: `frames are named <component>.frame_a / frame_b, e.g. ${frames.slice(0, 8).join(', ')}${frames.length > 8 ? ', ...' : ''}`,
    });
  }
}

/** states q whose derivative is another state qd (der(q) = qd), by their indices in x */
function coordinatePairs(s: Sensitivities): { q: number; qd: number }[] {
  const names = s.compiled.stateNames, n = names.length;
  const pairs: { q: number; qd: number }[] = [];
  names.forEach((name, i) => {
    const row = s.row(`der(${name})`);
    const j = row.findIndex((a) => Math.abs(a - 1) <= EXACT);
    if (j >= 0 && j < n && row.every((a, k) => k === j || Math.abs(a) <= EXACT)) pairs.push({ q: i, qd: j });
  });
  if (pairs.length === 0) {
    throw new ModelError('the model has no coordinates among its states (no state q with der(q) = qd)', {
      variables: [...names],
      hint: 'a frame Jacobian is taken with respect to joint coordinates: use a mechanism whose joints have states',
    });
  }
  return pairs;
}
