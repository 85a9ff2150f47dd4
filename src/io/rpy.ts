// Roll-pitch-yaw angles (URDF's <origin rpy>, the CLI's --start j.Q=rpy:...)
// as a rotation matrix and a quaternion. Its own file, free of imports, so
// that a run from the compile cache can read --start without the URDF reader.
export type Vec3 = [number, number, number];
export type Mat = [Vec3, Vec3, Vec3];

/** R = Rz(yaw) Ry(pitch) Rx(roll), entries within 1e-15 of 0 or ±1 made exact */
export function rpyMatrix([r, p, y]: Vec3): Mat {
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(r), Math.sin(r), Math.cos(p), Math.sin(p), Math.cos(y), Math.sin(y)];
  const R: Mat = [
    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
    [-sp, cp * sr, cp * cr],
  ];
  const snap = (v: number) => (Math.abs(v) < 1e-15 ? 0 : Math.abs(Math.abs(v) - 1) < 1e-15 ? Math.sign(v) : v);
  return R.map((row) => row.map(snap)) as Mat;
}

/** q = qz(yaw) qy(pitch) qx(roll) as [x, y, z, w]: the rotation of rpyMatrix */
export function rpyQuaternion([r, p, y]: Vec3): [number, number, number, number] {
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(r / 2), Math.sin(r / 2), Math.cos(p / 2), Math.sin(p / 2), Math.cos(y / 2), Math.sin(y / 2)];
  return [sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy];
}
