// --start name=value for the vectors of a free or ball joint (issue 29): a
// comma list is the vector's components, name[1..n], and an orientation
// name.Q takes a quaternion (normalised), roll-pitch-yaw or an axis and
// angle, as the viewer's and URDF's conventions:
//   --start j.r=0,0,1             j.r[1..3]
//   --start j.Q=1,0,0,1           normalised: j.Q[1..4] = (w, x, y, z) / |Q|
//   --start j.Q=rpy:0.1,0,1.57    R = Rz(yaw) Ry(pitch) Rx(roll), URDF's
//   --start j.Q=axis:0,0,1,1.57   a turn of 1.57 rad about (0, 0, 1)
// A scalar value is kept as it is (j1.q=0.5).
import { UsageError } from '../errors.ts';
import { rpyQuaternion } from '../io/rpy.ts';
import { number } from './model-commands.ts';

const PREFIXES = ['rpy:', 'axis:'];

// (the --start values as given) => the same as name=value of single numbers
export function expandStarts(starts: readonly string[]): string[] {
  return starts.flatMap((s) => {
    const i = s.indexOf('=');
    const name = s.slice(0, i),
      text = s.slice(i + 1);
    if (i <= 0 || (!text.includes(',') && !PREFIXES.some((p) => text.startsWith(p)))) return [s];
    const quaternion = /(^|\.)Q$/.test(name);
    const values = vector(name, text, quaternion);
    return values.map((v, k) => `${name}[${k + 1}]=${v}`);
  });
}

function vector(name: string, text: string, quaternion: boolean): number[] {
  const prefix = PREFIXES.find((p) => text.startsWith(p));
  const numbers = (t: string) => t.split(',').map((x) => number(`--start ${name}`, x));
  if (prefix && !quaternion)
    throw new UsageError(`--start ${name}=${text}: ${prefix.slice(0, -1)} gives an orientation, and ${name} is not one`, {
      hint: "rpy: and axis: are for a free or ball joint's Q, e.g. --start j.Q=rpy:0,0,1.57",
    });
  if (prefix === 'rpy:') {
    const v = numbers(text.slice(4));
    if (v.length !== 3) throw new UsageError(`--start ${name}=${text}: rpy takes roll, pitch, yaw`, { hint: `e.g. --start ${name}=rpy:0,0,1.57` });
    const [x, y, z, w] = rpyQuaternion(v as [number, number, number]);
    return [w, x, y, z];
  }
  if (prefix === 'axis:') {
    const v = numbers(text.slice(5));
    const n = Math.hypot(v[0], v[1], v[2]);
    if (v.length !== 4 || !(n > 0))
      throw new UsageError(`--start ${name}=${text}: axis takes x, y, z (not all zero) and an angle in rad`, { hint: `e.g. --start ${name}=axis:0,0,1,1.57` });
    const [s, c] = [Math.sin(v[3] / 2), Math.cos(v[3] / 2)];
    return [c, (s * v[0]) / n, (s * v[1]) / n, (s * v[2]) / n];
  }
  const v = numbers(text);
  if (!quaternion) return v;
  const n = Math.hypot(...v);
  if (v.length !== 4 || !(n > 0)) {
    throw new UsageError(`--start ${name}=${text} is not a quaternion of non-zero length`, {
      hint: `give w,x,y,z (normalised for you), e.g. --start ${name}=1,0,0,0; or rpy:roll,pitch,yaw or axis:x,y,z,angle`,
    });
  }
  return v.map((x) => x / n);
}
