// Roll, pitch and yaw of a free or ball joint's quaternion, for the posing
// sliders: R = Rz(yaw) Ry(pitch) Rx(roll), the convention of URDF and of
// `--start j.Q=rpy:…` (src/io/rpy.ts), Q = (w, x, y, z) as the joints'
// states (MuJoCo's order). Three angles are singular at pitch = ±π/2, where
// roll and yaw turn about the same axis; the sliders only show angles there,
// and the quaternion they write is always a unit one.
import { rpyQuaternion } from '../../src/io/rpy.ts';

export type Rpy = [number, number, number];
export type Quaternion = [number, number, number, number];

// (roll, pitch, yaw) => the unit quaternion (w, x, y, z) of Rz(yaw) Ry(pitch) Rx(roll)
export function quaternionOfRpy(rpy: Readonly<Rpy>): Quaternion {
  const [x, y, z, w] = rpyQuaternion([...rpy]);
  return [w, x, y, z];
}

/**
 * cos(pitch) below this: roll and yaw turn about one axis, and the yaw is
 * taken as the whole turn (a rotation off by O(cos(pitch)): below it,
 * rounding; above it, the roll below makes up for the yaw's rounding)
 */
const GIMBAL = 1e-14;

/**
 * (Q = w, x, y, z, any non-zero length) => roll in (-π, π], pitch in
 * [-π/2, π/2], yaw in (-π, π] whose rotation is R(Q) to rounding, also near
 * pitch ±π/2; there the roll is 0 and the yaw takes the whole turn.
 */
export function rpyOfQuaternion([w, x, y, z]: Readonly<Quaternion>): Rpy {
  const n2 = w * w + x * x + y * y + z * z;
  // R's entries (quaternion.ts, rotationNumbers) for a quaternion of length √n2
  const r20 = (2 * (x * z - w * y)) / n2,
    r21 = (2 * (y * z + w * x)) / n2;
  const r10 = (2 * (x * y + w * z)) / n2,
    r00 = 1 - (2 * (y * y + z * z)) / n2;
  const r01 = (2 * (x * y - w * z)) / n2,
    r11 = 1 - (2 * (x * x + z * z)) / n2;
  // R[2][0] = -sin(pitch), |R[0..1][0]| = cos(pitch): atan2 keeps pitch accurate near ±π/2, where asin would not
  const c = Math.hypot(r00, r10),
    pitch = Math.atan2(-r20, c);
  const yaw = c < GIMBAL ? Math.atan2(-r01, r11) : Math.atan2(r10, r00);
  // the roll of what is left, Rx(roll) = Ry(pitch)^T Rz(yaw)^T R (its column 2): it absorbs the yaw's rounding
  // (near pitch ±π/2 the yaw is known to ε / cos(pitch) only, and an error there is mostly a turn about x)
  const [sy, cy, sp, cp] = [Math.sin(yaw), Math.cos(yaw), Math.sin(pitch), Math.cos(pitch)];
  const roll = Math.atan2(sp * (cy * r01 + sy * r11) + cp * r21, cy * r11 - sy * r01);
  return [roll, pitch, yaw];
}

/** Q / |Q|, or undefined for a quaternion of no length (or not finite) that cannot be an orientation */
export function unitOrUndefined(Q: Readonly<Quaternion>): Quaternion | undefined {
  const n = Math.hypot(...Q);
  return n > 1e-12 && Number.isFinite(n) ? (Q.map((v) => v / n) as Quaternion) : undefined;
}
