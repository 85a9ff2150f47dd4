// What every entry of the package shares, in Node and in browsers: build a
// model (the Mechanism builder and the component libraries, or
// Model/Component with the expression builders), compile it torn or relaxed,
// simulate it, read the signals, record a run for the viewer; URDF robots
// from text; the typed errors. Nothing here touches node:* modules: src/index.ts
// adds the Node-only pieces, viewer/browser.ts the viewer component.

// building models
export { Model, Component, Connector, type ConnectorSpec, type Connectable, type Quantity, type GeneralizedCoordinate, der, time } from './model/index.ts';
export {
  type Expr,
  type Ex,
  type Vec3,
  type Vec3Like,
  type Mat3,
  add,
  sub,
  neg,
  mul,
  div,
  pow,
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  atan2,
  sqrt,
  exp,
  log,
  abs,
  sign,
  relax,
  residue,
  vec3,
  vadd,
  vsub,
  vscale,
  vneg,
  dot,
  cross,
  mat3,
  identity3,
  transpose,
  mulMV,
  mulMTV,
  mulMM,
  skew,
  axisRotation,
} from './expr/index.ts';
export * from './library/multibody/index.ts';
export * as rotational from './library/rotational/index.ts';
export * as electrical from './library/electrical/index.ts';
export * as bondgraph from './library/bondgraph/index.ts';
export * as control from './library/control/index.ts';

// URDF robots from the text of a .urdf file (loadUrdf, which reads the file, is Node-only: src/index.ts)
export { urdfMechanism, parseUrdf, type UrdfModel, type UrdfOptions, type UrdfRobot } from './io/urdf.ts';
// MJCF (MuJoCo) robots from the text of an .xml file (loadMjcf reads the file and its includes: src/index.ts)
export { mjcfMechanism, parseMjcf, type MjcfModel, type MjcfOptions, type MjcfRobot } from './io/mjcf.ts';

// compiling and simulating
// contact (first layers): collision geometry on bodies, the scene a run is given (simulate's contact option)
export { ContactScene, type ContactOptions } from './contact/scene.ts';
export type { Collider } from './contact/collider.ts';
export type { CollisionShape } from './contact/shapes.ts';
export type { ContactMaterial, ContactLaw } from './contact/material.ts';
export { compile, type CompileOptions, type CompileReport, type Mode, type Problem } from './compile.ts';
export type { CompiledModel, StateValues, PortableModel } from './codegen/compiled.ts';
export type { CoordinateNames, InverseDynamics } from './codegen/inverse.ts';
export type { ForwardDerivatives, InverseDerivatives } from './codegen/dynamics-derivatives.ts';
export type { ModelState, NonFiniteUnknown } from './codegen/state.ts';
export type { TearOverride } from './structure/plan.ts';
export type { IterateOptions } from './structure/plan-types.ts';
export type { IterationStats } from './codegen/relax-iterate.ts';
export {
  simulate,
  simulateBlocks,
  type SimulateOptions,
  type SampleBlock,
  type RunStats,
  type Integrator,
  DEFAULT_STEP,
  DEFAULT_RTOL,
  DEFAULT_ATOL,
  MAX_RESULT_BYTES,
} from './sim/simulate.ts';
export { SimulationResult } from './sim/result.ts';
export type { Controller } from './sim/controller.ts';

// linearization (x' = A x + B u, y = C x + D u) and frame Jacobians at an operating point, loops closed
export {
  linearize,
  frameJacobian,
  frameJacobian as jacobian,
  eigenvalues,
  type Linearization,
  type LinearizeOptions,
  type PointOptions,
  type FrameJacobian,
  type Eigenvalue,
} from './analysis/index.ts';

// a run with its scene and frame poses, what the viewer plays (kron simulate --out run.json writes the same)
export { simulatePlayback, type PlaybackRecording } from './io/playback.ts';
export type { PlaybackRun, PlaybackFields, Scene, Poses } from './io/types.ts';

// errors
export { KronError, ModelError, StructuralError, TearingError, SimulationError, UsageError, OutputError, type ErrorDetails } from './errors.ts';
