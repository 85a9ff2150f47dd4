// Frame poses: which signals hold them, packing sampled R and r into
// position + unit quaternion (gl-matrix), and the pose at any time between
// samples (lerp of the position, slerp of the orientation).
import { quat, vec3 } from 'gl-matrix';
import { SimulationError } from '../errors.ts';
import { POSE_STRIDE, type PoseFrame, type Poses } from './types.ts';

/** signals per frame: R[1][1] .. R[3][3] row by row, then r[1] .. r[3] */
export const SIGNALS_PER_FRAME = 12;

function frameSignals(path: string): string[] {
  const R = [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${path}.R[${i}][${j}]`));
  return [...R, ...[1, 2, 3].map((i) => `${path}.r[${i}]`)];
}

// (pose frames, signal lookup) => SIGNALS_PER_FRAME names per frame, from the first member that has them
export function poseSignalNames(frames: readonly PoseFrame[], has: (name: string) => boolean): string[] {
  return frames.flatMap((f) => {
    const member = f.members.find((m) => frameSignals(m).every(has));
    if (!member) {
      throw new SimulationError(`the pose of frame ${f.name} is not among the compiled signals`, {
        variables: frameSignals(f.name).slice(0, 1),
        hint: 'frames draw from their R and r signals; check the frame belongs to the compiled model',
      });
    }
    return frameSignals(member);
  });
}

/** 1e-6: a micrometre, or a millionth of a unit quaternion; keeps result files small */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

// (columns of poseSignalNames, in order) => poses of every frame at every sample
export function packPoses(columns: readonly ArrayLike<number>[], samples: number): Poses {
  const frames = columns.length / SIGNALS_PER_FRAME;
  const data = new Array<number>(samples * frames * POSE_STRIDE);
  const R = new Float64Array(9),
    q = new Float64Array(4);
  const previous = Array.from({ length: frames }, () => new Float64Array(4));
  for (let k = 0; k < samples; k++) {
    for (let f = 0; f < frames; f++) {
      const c = f * SIGNALS_PER_FRAME;
      // gl-matrix is column-major: element (i, j) of R sits at j * 3 + i
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) R[j * 3 + i] = columns[c + i * 3 + j][k];
      quat.fromMat3(q, R);
      quat.normalize(q, q);
      // q and -q are one rotation: keep the sign continuous so samples interpolate smoothly
      if (k > 0 && quat.dot(q, previous[f]) < 0) quat.scale(q, q, -1);
      quat.copy(previous[f], q);
      const o = (k * frames + f) * POSE_STRIDE;
      for (let i = 0; i < 3; i++) data[o + i] = round(columns[c + 9 + i][k]);
      for (let i = 0; i < 4; i++) data[o + 3 + i] = round(q[i]);
    }
  }
  return { layout: 'x y z qx qy qz qw', frames, data };
}

/** the sample k with time[k] <= t < time[k + 1] (clamped to the run) */
export function sampleBefore(time: ArrayLike<number>, t: number): number {
  let lo = 0,
    hi = time.length - 1;
  if (hi <= 0 || t <= time[0]) return 0;
  if (t >= time[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

// double-precision scratch (gl-matrix's create() gives Float32Array)
const pa = new Float64Array(3),
  pb = new Float64Array(3),
  qa = new Float64Array(4),
  qb = new Float64Array(4);

// (poses, sample times, t) => out: every frame's pose at t, interpolated; allocates nothing
export function posesAtInto(out: Float32Array, poses: Poses, time: ArrayLike<number>, t: number): Float32Array {
  const k = sampleBefore(time, t);
  const next = Math.min(k + 1, time.length - 1);
  const span = time[next] - time[k];
  const s = span > 0 ? Math.min(1, Math.max(0, (t - time[k]) / span)) : 0;
  const d = poses.data;
  for (let f = 0; f < poses.frames; f++) {
    const a = (k * poses.frames + f) * POSE_STRIDE,
      b = (next * poses.frames + f) * POSE_STRIDE;
    vec3.set(pa, d[a], d[a + 1], d[a + 2]);
    vec3.set(pb, d[b], d[b + 1], d[b + 2]);
    quat.set(qa, d[a + 3], d[a + 4], d[a + 5], d[a + 6]);
    quat.set(qb, d[b + 3], d[b + 4], d[b + 5], d[b + 6]);
    vec3.lerp(pa, pa, pb, s);
    quat.normalize(qa, quat.slerp(qa, qa, qb, s));
    const o = f * POSE_STRIDE;
    ((out[o] = pa[0]), (out[o + 1] = pa[1]), (out[o + 2] = pa[2]));
    ((out[o + 3] = qa[0]), (out[o + 4] = qa[1]), (out[o + 5] = qa[2]), (out[o + 6] = qa[3]));
  }
  return out;
}
