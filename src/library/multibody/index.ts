// library/multibody: frames, world, bodies, bars and joints whose equations
// carry residue(qdd) (tearing) and relax(a) (relaxing), so that one library
// compiles to the torn M(q) qdd = h and to the relaxed O(f) recursion.
export { Frame } from './frame.ts';
export { World, STANDARD_GRAVITY } from './world.ts';
export { Body, type BodyOptions } from './body.ts';
export { FixedTranslation, Bar, type FixedTranslationOptions } from './fixed-translation.ts';
export { FixedRotation, type FixedRotationOptions } from './fixed-rotation.ts';
export { Joint, OneDofJoint, type CutPlane, type JointOptions, type JointRole, type RelativePose, type StoredEnergy } from './joint.ts';
export { Revolute } from './revolute.ts';
export { Prismatic } from './prismatic.ts';
export { RotationSequence, type MultiAxisOptions } from './rotation-sequence.ts';
export { Spherical } from './spherical.ts';
export { Universal, type UniversalOptions } from './universal.ts';
export { BallJoint, type BallJointOptions } from './ball-joint.ts';
export { FreeJoint, type FreeJointOptions } from './free-joint.ts';
export { Weld, type WeldOptions } from './weld.ts';
export { Coupling, type CouplingOptions } from './coupling.ts';
export { Actuator, type ActuatorOptions } from './actuator.ts';
export { FixedTendon, type FixedTendonOptions } from './tendon.ts';
export { BodyCylinder, type BodyCylinderOptions, STEEL } from './body-cylinder.ts';
export { assignJointRoles, type KinematicLoop, type Topology } from './topology.ts';
export { Mechanism, type MechanismOptions, type GroundOptions } from './mechanism.ts';
export type { Geometry, Shape } from './geometry.ts';
