// analysis/: questions asked of a compiled model at an operating point, by
// symbolic differentiation of its flat equations and the implicit function
// theorem: linearization (A, B, C, D) and frame Jacobians.
export { linearize, type Linearization, type LinearizeOptions, type PointOptions } from './linearize.ts';
export { frameJacobian, frameJacobianFunction, type FrameJacobian, type FrameJacobianOptions } from './frame-jacobian.ts';
export { eigenvalues, type Eigenvalue } from './eigenvalues.ts';
