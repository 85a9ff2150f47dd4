// World poses of collision geometries: R (3x3, row-major, maps geometry to
// world coordinates) and p (origin, world) in one Float64Array of 12
// (R[0..8], p[9..11]), so a scene's poses are one flat array with stride 12.
//   R_g = R_b R_local      p_g = r_b + R_b offset
// Functions that write take `out` first and return it (gl-matrix style).

export const POSE_STRIDE = 12;

/** a unit quaternion [x, y, z, w] (the viewer's Geometry.orientation order) as a row-major rotation matrix */
export function quaternionMatrix(q: readonly [number, number, number, number]): number[] {
  const [x, y, z, w] = q;
  const n = Math.hypot(x, y, z, w);
  const [a, b, c, d] = [x / n, y / n, z / n, w / n];
  return [
    1 - 2 * (b * b + c * c),
    2 * (a * b - c * d),
    2 * (a * c + b * d),
    2 * (a * b + c * d),
    1 - 2 * (a * a + c * c),
    2 * (b * c - a * d),
    2 * (a * c - b * d),
    2 * (b * c + a * d),
    1 - 2 * (a * a + b * b),
  ];
}

// (out, at, body R row-major, body origin r, local R row-major, local offset) => out with the geometry's world pose at `at`
export function composePose(
  out: Float64Array,
  at: number,
  Rb: ArrayLike<number>,
  rb: ArrayLike<number>,
  Rl: ArrayLike<number>,
  offset: ArrayLike<number>,
): Float64Array {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) out[at + 3 * i + j] = Rb[3 * i] * Rl[j] + Rb[3 * i + 1] * Rl[3 + j] + Rb[3 * i + 2] * Rl[6 + j];
    out[at + 9 + i] = rb[i] + Rb[3 * i] * offset[0] + Rb[3 * i + 1] * offset[1] + Rb[3 * i + 2] * offset[2];
  }
  return out;
}

/** column j of the pose's rotation at `at` (the geometry's axis j in world coordinates) */
export const axisOf = (pose: ArrayLike<number>, at: number, j: number): [number, number, number] => [pose[at + j], pose[at + 3 + j], pose[at + 6 + j]];

/** the pose's origin at `at` */
export const originOf = (pose: ArrayLike<number>, at: number): [number, number, number] => [pose[at + 9], pose[at + 10], pose[at + 11]];
