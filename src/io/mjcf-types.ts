// The checked data an MJCF file is read into (mjcf-parse.ts): the robot, its
// body tree, joints and geoms, and the parse options. Types only, so that the
// files that read parts of a robot (mjcf-mesh.ts, mjcf-collision.ts, ...)
// and the parser share them without importing each other's code.
import type { ReadFile } from './mjcf-xml.ts';
import type { Quat } from './mjcf-frame.ts';
import type { MassProperties, SolidType } from './mjcf-inertia.ts';
import type { MjcfEquality } from './mjcf-equality.ts';
import type { MjcfActuator } from './mjcf-actuators.ts';
import type { MjcfTendon } from './mjcf-tendons.ts';
import type { MjcfKey } from './mjcf-keyframe.ts';
import type { MjcfMesh } from './mjcf-mesh.ts';
import type { MjcfContact } from './mjcf-contact.ts';
import type { Vec3 } from './urdf-parse.ts';

export type MjcfJointType = 'hinge' | 'slide' | 'ball' | 'free';

export interface MjcfJoint {
  /** the MJCF name; undefined when the file gives none */
  name?: string;
  type: MjcfJointType;
  /** the point it turns about, in the body's frame */
  pos: Vec3;
  /** unit axis in the body's frame (hinge, slide) */
  axis: Vec3;
  /** the coordinate at the file's pose (rad or m): MuJoCo's qpos0 */
  ref: number;
  springref: number;
  stiffness: number;
  damping: number;
  armature: number;
  frictionloss: number;
  /** [lower, upper] the sum of the actuators' forces on the joint is clamped to (MuJoCo 3's actuatorfrcrange), when limited */
  actuatorfrcrange?: [number, number];
  /** [lower, upper] (rad or m) when the joint is limited */
  range?: [number, number];
  /** where it is in the file, for messages */
  at: string;
}

export type MjcfGeomType = SolidType | 'plane' | 'mesh' | 'hfield' | 'sdf';

export interface MjcfGeom {
  name?: string;
  type: MjcfGeomType;
  /** MuJoCo's half sizes, fromto applied */
  size: number[];
  pos: Vec3;
  quat: Quat;
  /** its rgba, else its material's */
  rgba?: number[];
  mesh?: string;
  /** may collide (contype or conaffinity non-zero) */
  collides: boolean;
  /** MuJoCo's collision bitmasks (default 1, 1) */
  contype: number;
  conaffinity: number;
  /** MuJoCo's sliding friction (the first of friction's three numbers; default 1) */
  friction: number;
  /** MuJoCo's solref (time constant s, damping ratio) when the geom or its class gives it (positive numbers) */
  solref?: [number, number];
  /** MuJoCo's solimp (d0, dmax, width, mid, power; missing ones MuJoCo's defaults) when the geom or its class gives it */
  solimp?: number[];
  /** MuJoCo's contact dimensionality (1 frictionless, 3 sliding friction, 4 and 6 torsional and rolling too; default 3) */
  condim: number;
  /** MuJoCo's priority: of a pair, the higher one's friction, solref and solimp are used as they are (no mixing) */
  priority: number;
  /** its visualisation group: MuJoCo's viewer shows 0, 1 and 2 (menagerie files put collision geoms in 3) */
  group: number;
  /** kg/m^3 (kg/m^2 for a shell), and the mass (kg) when the file gives one: inertia from geoms */
  density: number;
  mass?: number;
  /** shellinertia="true": the mass on the surface (primitives; a mesh's is its <mesh inertia="shell">) */
  shell?: boolean;
}

export interface MjcfBody {
  name?: string;
  /** MuJoCo's body number: 1 for the first body under the world, depth first */
  id: number;
  pos: Vec3;
  quat: Quat;
  joints: MjcfJoint[];
  /** undefined: no mass (no inertial, no geoms with mass) */
  inertial?: MassProperties;
  geoms: MjcfGeom[];
  children: MjcfBody[];
  at: string;
}

/** an MJCF file read and checked, defaults applied: its body tree, before any mechanism is built */
export interface MjcfRobot {
  /** the model's name (<mujoco model>) */
  name: string;
  /** <option gravity>, world-resolved */
  gravity: Vec3;
  /** the bodies under the world */
  bodies: MjcfBody[];
  /** geoms of the world body itself (floors and the like): drawn, fixed */
  worldGeoms: MjcfGeom[];
  /** the parent filter's switch, <contact><exclude> and <contact><pair> (mjcf-contact.ts) */
  contact: MjcfContact;
  /** <equality> constraints (mjcf-equality.ts), closed exactly by mjcfMechanism */
  equalities: MjcfEquality[];
  /** fixed tendons (mjcf-tendons.ts), actuators (mjcf-actuators.ts), keyframes (mjcf-keyframe.ts), in file order */
  tendons: MjcfTendon[];
  /** the actuators (mjcf-actuators.ts), in file order */
  actuators: MjcfActuator[];
  /** the keyframes (mjcf-keyframe.ts), in file order */
  keyframes: MjcfKey[];
  /** what affects the dynamics but is not read, each naming the element */
  warnings: string[];
  /** the <mesh> assets by name: the file (<compiler meshdir> or assetdir before it, relative to the main file's folder), scale, inertia rule (mjcf-mesh.ts) */
  meshes: Record<string, MjcfMesh>;
}

export interface MjcfParseOptions {
  /**
   * the content of an included file or a mesh file by the name <include
   * file> or <compiler meshdir>/<mesh file> gives (relative to the main
   * file); undefined when there is none. Bytes (a Uint8Array) for a binary
   * STL; text is read as UTF-8. Mesh files are read only for the mass of a
   * body without <inertial> (mjcf-mesh.ts)
   */
  readFile?: ReadFile;
}
