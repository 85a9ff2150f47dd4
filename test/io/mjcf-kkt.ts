// The oracle of the MJCF loop tests: the exact (hard) constrained
// accelerations of MuJoCo's own model of the file, from its smooth dynamics
// and its equality constraints' Jacobians (MuJoCo itself makes them soft):
//   [ M  J^T ] [ qacc ]   [ qfrc_passive - qfrc_bias ]
//   [ J  0   ] [ -lam ] = [ -Jdot qvel               ]
// M from mj_fullM (armature 0), qfrc_bias and qfrc_passive from mj_forward
// with constraints disabled; J, Jdot from mj_jac and mj_jacDot at the
// constraint points: a connect's anchor on body1 and body2 (3 rows), a
// weld's body2 origin as a point of body1 and of body2, and both bodies'
// rotations (6 rows); a joint equality y - y0 = P(x - x0) the row
// e_y - P'(u) e_x. Rows implied by the others (a connect closing a planar
// loop: its out-of-plane row) are dropped by Gram-Schmidt on the rows, so
// the system is not singular.
import type { MainModule, MjData, MjModel } from '@mujoco/mujoco';

export interface ConstraintRows {
  /** rows x nv, row-major */
  J: number[][];
  /** Jdot qvel per row */
  Jdv: number[];
}

const CONNECT = 0,
  WELD = 1,
  JOINT = 2,
  EQ_DATA = 11;

/** a body's point (world) and its linear and angular Jacobians, or their time derivatives */
function jacobians(mj: MainModule, m: MjModel, d: MjData, point: number[], body: number, dot: boolean): { p: number[][]; r: number[][] } {
  const nv = m.nv,
    jp = new mj.DoubleBuffer(3 * nv),
    jr = new mj.DoubleBuffer(3 * nv);
  try {
    (dot ? mj.mj_jacDot : mj.mj_jac)(m, d, jp, jr, point, body);
    const rows = (b: typeof jp) => {
      const v = b.GetView() as Float64Array;
      return [0, 1, 2].map((i) => Array.from(v.slice(i * nv, (i + 1) * nv)));
    };
    return { p: rows(jp), r: rows(jr) };
  } finally {
    jp.delete();
    jr.delete();
  }
}

/** the world position of a point given in a body's frame */
function worldPoint(d: MjData, body: number, local: ArrayLike<number>): number[] {
  const x = d.xpos as Float64Array,
    R = d.xmat as Float64Array;
  return [0, 1, 2].map((i) => x[3 * body + i] + R[9 * body + 3 * i] * local[0] + R[9 * body + 3 * i + 1] * local[1] + R[9 * body + 3 * i + 2] * local[2]);
}

/** every connect's anchor gap (m) at the state of the last mj_forward or mj_step */
export function connectGaps(m: MjModel, d: MjData): number[] {
  const type = m.eq_type as Int32Array,
    b1 = m.eq_obj1id as Int32Array,
    b2 = m.eq_obj2id as Int32Array,
    data = m.eq_data as Float64Array;
  const gaps: number[] = [];
  for (let e = 0; e < m.neq; e++) {
    if (type[e] !== CONNECT) continue;
    const p1 = worldPoint(d, b1[e], data.slice(EQ_DATA * e, EQ_DATA * e + 3));
    const p2 = worldPoint(d, b2[e], data.slice(EQ_DATA * e + 3, EQ_DATA * e + 6));
    gaps.push(Math.hypot(p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]));
  }
  return gaps;
}

/** the equality constraints' rows at the state of the last mj_forward */
export function constraintRows(mj: MainModule, m: MjModel, d: MjData): ConstraintRows {
  const type = m.eq_type as Int32Array,
    b1 = m.eq_obj1id as Int32Array,
    b2 = m.eq_obj2id as Int32Array,
    data = m.eq_data as Float64Array;
  const qvel = Array.from(d.qvel as Float64Array);
  const out: ConstraintRows = { J: [], Jdv: [] };
  const diff = (a: number[][], b: number[][]) => a.map((row, i) => row.map((v, k) => v - b[i][k]));
  const push = (rows: number[][], dots: number[][]) => {
    out.J.push(...rows);
    out.Jdv.push(...dots.map((row) => row.reduce((s, v, k) => s + v * qvel[k], 0)));
  };
  for (let e = 0; e < m.neq; e++) {
    if (type[e] === CONNECT) {
      const p1 = worldPoint(d, b1[e], data.slice(EQ_DATA * e, EQ_DATA * e + 3));
      const p2 = worldPoint(d, b2[e], data.slice(EQ_DATA * e + 3, EQ_DATA * e + 6));
      const [j1, j2] = [jacobians(mj, m, d, p1, b1[e], false), jacobians(mj, m, d, p2, b2[e], false)];
      const [k1, k2] = [jacobians(mj, m, d, p1, b1[e], true), jacobians(mj, m, d, p2, b2[e], true)];
      push(diff(j2.p, j1.p), diff(k2.p, k1.p));
    } else if (type[e] === WELD) {
      const p = Array.from((d.xpos as Float64Array).slice(3 * b2[e], 3 * b2[e] + 3));
      const [j1, j2] = [jacobians(mj, m, d, p, b1[e], false), jacobians(mj, m, d, p, b2[e], false)];
      const [k1, k2] = [jacobians(mj, m, d, p, b1[e], true), jacobians(mj, m, d, p, b2[e], true)];
      push([...diff(j2.p, j1.p), ...diff(j2.r, j1.r)], [...diff(k2.p, k1.p), ...diff(k2.r, k1.r)]);
    } else if (type[e] === JOINT) {
      // y - y0 = P(x - x0): the row e_y - P'(u) e_x, and Jdot qvel = -P''(u) xd^2
      const c = data.slice(EQ_DATA * e, EQ_DATA * e + 5),
        dofs = m.jnt_dofadr as Int32Array,
        adr = m.jnt_qposadr as Int32Array;
      const row = new Array<number>(m.nv).fill(0);
      row[dofs[b1[e]]] = 1;
      let ddP = 0;
      if (b2[e] >= 0) {
        const u = (d.qpos as Float64Array)[adr[b2[e]]] - (m.qpos0 as Float64Array)[adr[b2[e]]];
        row[dofs[b2[e]]] = -(c[1] + 2 * c[2] * u + 3 * c[3] * u ** 2 + 4 * c[4] * u ** 3);
        ddP = (2 * c[2] + 6 * c[3] * u + 12 * c[4] * u ** 2) * qvel[dofs[b2[e]]] ** 2;
      }
      out.J.push(row);
      out.Jdv.push(-ddP);
    } else {
      throw new Error(`equality ${e} is of type ${type[e]}, which the oracle does not build`);
    }
  }
  return out;
}

/** the rows with their right-hand sides made orthonormal, those implied by the earlier ones (relative 1e-9) dropped */
function independent(J: number[][], rhs: number[]): { J: number[][]; rhs: number[] } {
  const scale = Math.max(...J.map((r) => Math.hypot(...r)));
  const kept: { J: number[][]; rhs: number[] } = { J: [], rhs: [] };
  J.forEach((row, i) => {
    let r = [...row],
      b = rhs[i];
    kept.J.forEach((k, n) => {
      const c = r.reduce((s, v, j) => s + v * k[j], 0);
      r = r.map((v, j) => v - c * k[j]);
      b -= c * kept.rhs[n];
    });
    const norm = Math.hypot(...r);
    if (norm > 1e-9 * scale) {
      kept.J.push(r.map((v) => v / norm));
      kept.rhs.push(b / norm);
    }
  });
  return kept;
}

/** Gaussian elimination with partial pivoting: A x = b, A square (copied) */
export function solve(A: number[][], b: number[]): number[] {
  const n = b.length,
    M = A.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x;
}

/** MuJoCo's exact constrained qacc at (qpos, qvel); the model must have constraints disabled (smoothPeer) */
export function exactAccelerations(mj: MainModule, m: MjModel, d: MjData, qpos: ArrayLike<number>, qvel: ArrayLike<number>): { qacc: number[]; rows: number } {
  (d.qpos as Float64Array).set(qpos);
  (d.qvel as Float64Array).set(qvel);
  (d.qfrc_applied as Float64Array).fill(0);
  mj.mj_forward(m, d);
  const nv = m.nv,
    buffer = new mj.DoubleBuffer(nv * nv);
  let M: number[][];
  try {
    mj.mj_fullM(m, d, buffer);
    const v = buffer.GetView() as Float64Array;
    M = Array.from({ length: nv }, (_, i) => Array.from(v.slice(i * nv, (i + 1) * nv)));
  } finally {
    buffer.delete();
  }
  const force = Array.from({ length: nv }, (_, i) => (d.qfrc_passive as Float64Array)[i] - (d.qfrc_bias as Float64Array)[i]);
  const rows = constraintRows(mj, m, d);
  const { J, rhs } = independent(
    rows.J,
    rows.Jdv.map((v) => -v),
  );
  const K = [...M.map((r, i) => [...r, ...J.map((j) => j[i])]), ...J.map((j) => [...j, ...J.map(() => 0)])];
  return { qacc: solve(K, [...force, ...rhs]).slice(0, nv), rows: J.length };
}
