// Units of signals, where the library's naming says them: a small table by
// the last name segment (without indices), the joint type deciding between
// an angle and a length. Unknown names have no unit (the axis says none).
// SI as the library computes: angles in rad, torques in N m.
import type { Scene } from '../../src/io/types.ts';

/** a joint coordinate and its derivatives: rad for revolute and others, m for prismatic */
const JOINT: Record<string, [string, string]> = {
  q: ['rad', 'm'],
  qd: ['rad/s', 'm/s'],
  qdd: ['rad/s²', 'm/s²'],
};

/** by last segment: frames (Modelica's r v a R w z f t), bodies, energy, momentum, free and ball joints, rotational flanges */
const BY_SEGMENT: Record<string, string> = {
  tau: 'N m',
  r: 'm',
  v: 'm/s',
  a: 'm/s²',
  R: '1',
  w: 'rad/s',
  z: 'rad/s²',
  f: 'N',
  t: 'N m',
  fc: 'N',
  m: 'kg',
  r_cm: 'm',
  I: 'kg m²',
  g: 'm/s²',
  phi: 'rad',
  J: 'kg m²',
  kinetic: 'J',
  potential: 'J',
  total: 'J',
  // momentum.linear, momentum.angular (about the world origin); free and ball joints' quaternion and accelerations
  linear: 'kg m/s',
  angular: 'kg m²/s',
  Q: '1',
  vd: 'm/s²',
  wd: 'rad/s²',
};

/** a signal's name => its last segment without indices (j1.frame_b.r[2] => r) */
function lastSegment(name: string): string {
  return name.replace(/(\[\d+\])+$/, '').replace(/^.*\./, '');
}

/** the signal's unit, or '' when the library's naming does not say it */
export function unitOf(name: string, scene: Scene | undefined): string {
  const last = lastSegment(name);
  const joint = JOINT[last];
  if (joint) {
    const owner = name.replace(/(\[\d+\])+$/, '').replace(/\.[^.]*$/, '');
    const type = scene?.joints.find((j) => j.name === owner)?.type;
    return joint[type === 'prismatic' ? 1 : 0];
  }
  return BY_SEGMENT[last] ?? '';
}

/** an angle that may be wrapped: a position in rad (not a rate) */
export const isAngle = (unit: string): boolean => unit === 'rad';

/** an angle wrapped to (-pi, pi] */
export function wrapAngle(a: number): number {
  const w = a - 2 * Math.PI * Math.ceil((a - Math.PI) / (2 * Math.PI));
  return w <= -Math.PI ? w + 2 * Math.PI : w;
}
