// Equations shared by the rigid elements: frame_b rigidly attached to frame_a
// at the world-resolved offset rw (relaxing paper eqs. 25-26, with the
// position and velocity levels the paper leaves out):
//   r_b = r_a + rw                  v_b = v_a + w_a x rw
//   w_b = w_a                       z_b = z_a
//   a_b = a_a + z_a x rw + w_a x (w_a x rw)
//   f_a + f_b = 0                   t_a + t_b + rw x f_b = 0   (massless)
// The centripetal term w_a x (w_a x rw) may be given written otherwise
// (world-inertia.ts centripetal: the bars share w . c_k and w . w with the
// body on the same frame, issue: fewer operations per body).
import { type Vec3, cross, vadd, vneg } from '../../expr/index.ts';
import type { Component } from '../../model/index.ts';
import type { Frame } from './frame.ts';

export function rigidOffset(c: Component, fa: Frame, fb: Frame, rw: Vec3, centripetal: Vec3 = cross(fa.w, cross(fa.w, rw))): void {
  c.vectorEquation(fb.r, vadd(fa.r, rw));
  c.vectorEquation(fb.w, fa.w);
  c.vectorEquation(fb.v, vadd(fa.v, cross(fa.w, rw)));
  c.vectorEquation(fb.z, fa.z);
  c.vectorEquation(fb.a, vadd(vadd(fa.a, cross(fa.z, rw)), centripetal));
  cutBalance(c, fa, fb, rw);
}

/** force and torque balance of a massless element whose frame_b is at rw from frame_a */
export function cutBalance(c: Component, fa: Frame, fb: Frame, rw: Vec3): void {
  c.vectorEquation(fa.f, vneg(fb.f));
  c.vectorEquation(fa.t, vneg(vadd(fb.t, cross(rw, fb.f))));
}

/** 3x3 matrix equation, element by element */
export function matrixEquation(c: Component, lhs: readonly Vec3[], rhs: readonly Vec3[]): void {
  lhs.forEach((row, i) => c.vectorEquation(row, rhs[i]));
}
