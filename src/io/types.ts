// The playback data a result file carries beside its signals, so that a
// viewer can draw the mechanism at any sampled time: the static scene (what
// to draw, attached to which frame) and the sampled frame poses.
// Plain JSON data; `kron simulate --out run.json` writes it for mechanisms.
import type { CollisionShape } from '../contact/shapes.ts';
import type { Floor, Geometry } from '../library/multibody/geometry.ts';
import type { CompileReport } from '../report.ts';

export type Vec3Tuple = [number, number, number];

/** frames that are connected share one pose; the set is named by its first member */
export interface PoseFrame {
  name: string;
  /** every frame path in the set, e.g. ["j1.frame_b", "link1.frame_a"] */
  members: string[];
}

/** a shape rigidly attached to a frame (geometry in that frame's coordinates) */
export interface SceneShape {
  /** the component it belongs to */
  name: string;
  kind: 'body' | 'bar' | 'joint';
  /** index into scene.frames */
  frame: number;
  geometry: Geometry;
}

/** a rod between two frames' origins (a bar or a fixed rotation without geometry) */
export interface SceneLink {
  name: string;
  from: number;
  to: number;
  radius: number;
  color: string;
}

/** a joint drawn as its axis at its frame_a (togglable in the viewer) */
export interface SceneJoint {
  name: string;
  /** revolute, prismatic, or the component's class name for other joints */
  type: string;
  frame: number;
  /** the axis in frame_a coordinates, if the joint has one */
  axis?: Vec3Tuple;
}

/** a collision geometry drawn on a pose set (the viewer's collision toggle): the contact layer's shape at its pose in the frame */
export interface SceneCollider {
  /** the body's path and the collider's name, e.g. "ball.collision1" ("world.…" for the world's) */
  name: string;
  /** index into scene.frames */
  frame: number;
  /** the shape (src/contact/shapes.ts: sphere, capsule and cylinder along z, box, convex by its hull's vertices) */
  shape: CollisionShape;
  /** where the shape's origin sits, in the frame's coordinates (m) */
  offset?: Vec3Tuple;
  /** the shape's rotation into the frame's coordinates, a unit quaternion [x, y, z, w] */
  orientation?: [number, number, number, number];
}

/** what the viewer draws of a mechanism: frames grouped into pose sets, shapes on them, rods, joint axes */
export interface Scene {
  /** the world's gravity: the viewer puts the ground grid normal to it */
  gravity: Vec3Tuple;
  /** the pose sets: connected frames coincide and share one pose (Poses has one per set) */
  frames: PoseFrame[];
  /** index of the world frame in frames (-1: no world) */
  world: number;
  /** bodies', bars' and joints' shapes, each on a pose set */
  shapes: SceneShape[];
  /** rods between two pose sets (bars and rotations without a shape) */
  links: SceneLink[];
  /** joints, drawn as what they are on their axes */
  joints: SceneJoint[];
  /** collision geometry (bodies' and the world's, planes left out), drawn when the viewer's collision toggle is on; absent: none */
  colliders?: SceneCollider[];
  /** the world's floor (an MJCF plane, or the ground plane of contact): the viewer's ground there; absent: a grid just below the mechanism */
  floor?: Floor;
  /** every parameter's value by hierarchical name (the viewer's model tree shows a component's); absent in older runs */
  parameters?: Record<string, number>;
}

/**
 * Frame poses at every sample time: data[(k * frames + f) * 7 + i] for
 * sample k, frame f and i over x y z (world position of the origin) and
 * qx qy qz qw (the unit quaternion of the world-resolved orientation R).
 */
export interface Poses {
  /** the seven numbers stored per frame and sample */
  layout: 'x y z qx qy qz qw';
  /** the number of frames posed per sample */
  frames: number;
  /** 7 numbers per frame per sample, sample-major */
  data: number[];
}

/** how a run was integrated (the viewer's info overlay shows it); adaptive and radau: step is the first step tried */
export interface Integration {
  integrator: 'rk4' | 'adaptive' | 'radau';
  step: number;
  rtol?: number;
  atol?: number;
  /** what the run cost (absent in results written before they were recorded): accepted and rejected steps, evaluations of the derivatives */
  steps?: number;
  rejected?: number;
  evaluations?: number;
  /** implicit integrators: Jacobians formed and LU decompositions */
  jacobians?: number;
  decompositions?: number;
  /** the default integrator (auto) went on with radau from this time, for this reason (RK4's step was unstable) */
  switched?: { time: number; reason: string };
}

/** the fields a mechanism's JSON result adds to { model, time, signals } */
export interface PlaybackFields {
  /** what to draw: the frames, shapes and their colours */
  scene: Scene;
  /** every frame's world pose at every sample */
  poses: Poses;
  /** the compile report of the model that ran */
  report: CompileReport;
  /** absent in results written before the viewer showed it */
  integration?: Integration;
}

/** a result file as the viewer reads it */
export interface PlaybackRun extends Partial<PlaybackFields> {
  /** the model's name */
  model: string;
  /** the sample times, s */
  time: number[];
  /** the recorded signals' samples by name */
  signals: Record<string, number[]>;
  /**
   * where the model came from: the URDF file of a URDF robot (kron simulate
   * robot.urdf), for the viewer's posing and meshes; the MJCF file of an MJCF
   * robot (kron simulate robot.xml), for its meshes
   */
  source?: {
    /** the URDF file's path */
    urdf?: string;
    /** the MJCF file's path */
    mjcf?: string;
  };
}

export const POSE_STRIDE = 7;
