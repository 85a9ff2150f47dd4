// An independent oracle for mechanisms/fourbar.ts: the four-bar as a
// one-degree-of-freedom system in the crank angle phi, from closed-form
// position analysis only (no dynamics code of Kron):
//   slider      s = sqrt(0.8 + 0.2 cos phi - 0.04 sin phi) - 1.2
//   universal   R3 = Ry(q1) Rz(q2) with R3 r3 = P - U: Rz keeps the z component,
//               so (Ry(-q1) d)_z = r3_z fixes q1, then q2 is the angle in x-y
// Kinetic energy T = 1/2 m(phi) phid^2 with m(phi) from the velocities of the
// poses (central differences in phi), potential V(phi) = sum m g y_cm, and
// Lagrange's equation m phidd + 1/2 m' phid^2 + V' = 0.
const RHO = 7700,
  RADIUS = 0.025,
  G = 9.80665;
type V3 = [number, number, number];
type M3 = [V3, V3, V3];

const mv = (R: M3, v: V3): V3 => [0, 1, 2].map((i) => R[i][0] * v[0] + R[i][1] * v[1] + R[i][2] * v[2]) as V3;
const mm = (A: M3, B: M3): M3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j])) as M3;
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (k: number, a: V3): V3 => [k * a[0], k * a[1], k * a[2]];
const rx = (t: number): M3 => [
  [1, 0, 0],
  [0, Math.cos(t), -Math.sin(t)],
  [0, Math.sin(t), Math.cos(t)],
];
const ry = (t: number): M3 => [
  [Math.cos(t), 0, Math.sin(t)],
  [0, 1, 0],
  [-Math.sin(t), 0, Math.cos(t)],
];
const rz = (t: number): M3 => [
  [Math.cos(t), -Math.sin(t), 0],
  [Math.sin(t), Math.cos(t), 0],
  [0, 0, 1],
];

interface Cylinder {
  r: V3;
  m: number;
  /** inertia about the centre of mass, body coordinates */
  I: M3;
}

function cylinder(r: V3): Cylinder {
  const L = Math.hypot(...r),
    m = RHO * Math.PI * RADIUS * RADIUS * L;
  const axial = (m * RADIUS * RADIUS) / 2,
    across = (m * (L * L + 3 * RADIUS * RADIUS)) / 12;
  const u = scale(1 / L, r);
  const I = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? across : 0) + (axial - across) * u[i] * u[j])) as M3;
  return { r, m, I };
}

export const B1 = cylinder([0, 0.5, 0.1]);
export const B2 = cylinder([0, 0.2, 0]);
export const B3 = cylinder([-1, 0.3, 0.1]);

export interface Pose {
  R: M3;
  /** centre of mass, world */
  c: V3;
}

export interface FourbarPosition {
  s: number;
  q1: number;
  q2: number;
  poses: [Pose, Pose, Pose];
}

// (crank angle) => slider, universal angles and the three bodies' poses, on the branch with |q1| < 90 deg
export function position(phi: number): FourbarPosition {
  const s = Math.sqrt(0.8 + 0.2 * Math.cos(phi) - 0.04 * Math.sin(phi)) - 1.2;
  const R1 = rx(phi);
  const P = mv(R1, B1.r);
  const U: V3 = [1.2 + s, 0.2, 0];
  const d: V3 = [P[0] - U[0], P[1] - U[1], P[2] - U[2]];
  // x sin q1 + z cos q1 = r3_z: rho sin(q1 + delta) = r3_z, the root near 0
  const rho = Math.hypot(d[0], d[2]),
    delta = Math.atan2(d[2], d[0]);
  const wrap = (t: number) => Math.atan2(Math.sin(t), Math.cos(t));
  const roots = [Math.asin(B3.r[2] / rho) - delta, Math.PI - Math.asin(B3.r[2] / rho) - delta].map(wrap);
  const q1 = Math.abs(roots[0]) < Math.abs(roots[1]) ? roots[0] : roots[1];
  const e = mv(ry(-q1), d);
  const q2 = Math.atan2(e[1], e[0]) - Math.atan2(B3.r[1], B3.r[0]);
  const R3 = mm(ry(q1), rz(q2));
  const I: M3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  return {
    s,
    q1,
    q2,
    poses: [
      { R: R1, c: mv(R1, scale(0.5, B1.r)) },
      { R: I, c: [1.2 + s, 0.1, 0] },
      { R: R3, c: add(U, mv(R3, scale(0.5, B3.r))) },
    ],
  };
}

const BODIES = [B1, B2, B3];
const H = 1e-5;

/** generalized inertia m(phi): sum of m |dc/dphi|^2 + omega^T I_world omega, omega from dR/dphi R^T */
function inertia(phi: number): number {
  const [a, b, o] = [position(phi - H), position(phi + H), position(phi)];
  let m = 0;
  BODIES.forEach((body, k) => {
    const dc = [0, 1, 2].map((i) => (b.poses[k].c[i] - a.poses[k].c[i]) / (2 * H));
    const R = o.poses[k].R;
    const dR = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (b.poses[k].R[i][j] - a.poses[k].R[i][j]) / (2 * H)));
    // skew(omega) = dR R^T
    const W = [0, 1, 2].map((i) => [0, 1, 2].map((j) => dR[i][0] * R[j][0] + dR[i][1] * R[j][1] + dR[i][2] * R[j][2]));
    const w: V3 = [W[2][1], W[0][2], W[1][0]];
    const wb = [0, 1, 2].map((i) => R[0][i] * w[0] + R[1][i] * w[1] + R[2][i] * w[2]) as V3; // body coordinates
    const Iw = mv(body.I, wb);
    m += body.m * (dc[0] ** 2 + dc[1] ** 2 + dc[2] ** 2) + (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]);
  });
  return m;
}

/** potential energy with y up */
export function potential(phi: number): number {
  const p = position(phi);
  return BODIES.reduce((v, body, k) => v + body.m * G * p.poses[k].c[1], 0);
}

export function energy(phi: number, phid: number): number {
  return 0.5 * inertia(phi) * phid * phid + potential(phi);
}

/** crank acceleration from Lagrange's equation (nested central differences: about 1e-6 relative) */
export function acceleration(phi: number, phid: number): number {
  const h = 1e-4;
  const dm = (inertia(phi + h) - inertia(phi - h)) / (2 * h);
  const dV = (potential(phi + h) - potential(phi - h)) / (2 * h);
  return -(0.5 * dm * phid * phid + dV) / inertia(phi);
}

/** slider speed ds/dt = ds/dphi phid */
export function sliderSpeed(phi: number, phid: number): number {
  return ((position(phi + H).s - position(phi - H).s) / (2 * H)) * phid;
}
