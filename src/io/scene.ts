// (mechanism, parameter values) => the static scene a viewer draws: frames
// grouped into pose sets (connected frames coincide, so they share a pose),
// shapes attached to frames, rods between the frames of bars and rotations,
// and joint axes.
import type { Expr } from '../expr/index.ts';
import { Body, FixedRotation, FixedTranslation, Frame, Joint, Prismatic, Revolute, World } from '../library/multibody/index.ts';
import type { Geometry } from '../library/multibody/geometry.ts';
import type { Component, Model } from '../model/index.ts';
import { ModelError } from '../errors.ts';
import { inertiaBox } from './inertia-box.ts';
import { groundFloor, sceneColliders } from './scene-colliders.ts';
import type { PoseFrame, Scene, SceneJoint, SceneLink, SceneShape, Vec3Tuple } from './types.ts';

/** steel: a body of negligible inertia (a point mass) is drawn as a sphere of its mass at its centre of mass */
const DENSITY = 7800;
const MIN_RADIUS = 0.015;
export const LINK_RADIUS = 0.012;
/** a centre of mass nearer frame_a than this many rod radii needs no rod to it */
const ROD_MIN = 2;
const LINK_COLOR = '#8395a7';
/** bodies without a shape alternate two tones, as the links of an industrial arm do: one machine, its links told apart */
const PALETTE = ['#e67e22', '#d5d8dc'];

/** the parameter value of a variable by hierarchical name (compiled.signal, or the declared value) */
export type ParameterValue = (name: string) => number;

function walk(root: Component): Component[] {
  const out: Component[] = [];
  const visit = (c: Component) => {
    out.push(c);
    c.children.forEach(visit);
  };
  visit(root);
  return out;
}

/** frames in walk order, grouped by connections (union-find on frame indices) */
function poseFrames(components: Component[]): { frames: PoseFrame[]; index: Map<Frame, number> } {
  const all = components.filter((c): c is Frame => c instanceof Frame);
  const id = new Map(all.map((f, i) => [f, i]));
  const parent = all.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (const c of components) {
    for (const [a, b] of c.connections) {
      const i = id.get(a.owner as Frame),
        j = id.get(b.owner as Frame);
      if (i === undefined || j === undefined) continue;
      const [ri, rj] = [root(i), root(j)];
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj); // the earliest frame names the set
    }
  }
  const frames: PoseFrame[] = [];
  const setOf = new Map<number, number>();
  const index = new Map<Frame, number>();
  all.forEach((f, i) => {
    const r = root(i);
    if (!setOf.has(r)) {
      setOf.set(r, frames.length);
      frames.push({ name: f.path, members: [] });
    }
    frames[setOf.get(r)!].members.push(f.path);
    index.set(f, setOf.get(r)!);
  });
  return { frames, index };
}

const constant = (e: Expr, what: string): number => {
  if (e.op !== 'const') throw new ModelError(`${what} is not a constant`, { hint: 'joint axes must be numbers' });
  return e.value!;
};

/**
 * A body without a shape: its equivalent inertia box (inertia-box.ts) at the
 * centre of mass, along its principal axes, so that its size and direction
 * show; a point mass (no inertia) as a small steel sphere of its mass. A
 * centre of mass away from frame_a (where the body's joint is) gets a rod
 * from frame_a to it: alone, the box floated beside its joint and looked
 * detached.
 */
function defaultBodyGeometry(body: Body, value: ParameterValue, color: string): Geometry[] {
  const m = value(`${body.path}.m`);
  const rcm = [1, 2, 3].map((i) => value(`${body.path}.r_cm[${i}]`)) as Vec3Tuple;
  const I = [1, 2, 3].map((i) => [1, 2, 3].map((j) => value(`${body.path}.I[${Math.min(i, j)}][${Math.max(i, j)}]`)));
  const box = inertiaBox(m, I);
  const radius = Math.max(MIN_RADIUS, Math.cbrt((3 * m) / (4 * Math.PI * DENSITY)));
  const mass: Geometry = box
    ? { shape: { type: 'box', size: box.size }, color, offset: rcm, orientation: box.orientation }
    : { shape: { type: 'sphere', radius }, color, offset: rcm };
  const length = Math.hypot(...rcm);
  if (length <= ROD_MIN * LINK_RADIUS) return [mass];
  const rod: Geometry = {
    shape: { type: 'cylinder', radius: LINK_RADIUS, length },
    color: LINK_COLOR,
    offset: rcm.map((x) => x / 2) as Vec3Tuple,
    axis: rcm.map((x) => x / length) as Vec3Tuple,
  };
  return [rod, mass];
}

function jointType(j: Joint): string {
  if (j instanceof Revolute) return 'revolute';
  if (j instanceof Prismatic) return 'prismatic';
  return j.constructor.name.toLowerCase();
}

function jointAxis(j: Joint): Vec3Tuple | undefined {
  const axis = (j as Joint & { axis?: readonly Expr[] }).axis;
  return axis ? (axis.map((e) => constant(e, `the axis of ${j.path}`)) as Vec3Tuple) : undefined;
}

/** the two frames of a two-frame component other than the ones we know, e.g. a loop joint */
function framesAB(c: Component): [Frame, Frame] | undefined {
  const a = c.children.find((f) => f.localName === 'frame_a'),
    b = c.children.find((f) => f.localName === 'frame_b');
  return a instanceof Frame && b instanceof Frame ? [a, b] : undefined;
}

// (model, parameter values, gravity) => what to draw; frames are attached by pose-set index
export function describeScene(model: Model, value: ParameterValue, gravity: Vec3Tuple): Scene {
  const components = walk(model);
  const { frames, index } = poseFrames(components);
  const world = components.find((c): c is World => c instanceof World);
  const shapes: SceneShape[] = [];
  const links: SceneLink[] = [];
  const joints: SceneJoint[] = [];
  const link = (c: Component, a: Frame, b: Frame) =>
    links.push({ name: c.path, from: index.get(a)!, to: index.get(b)!, radius: LINK_RADIUS, color: LINK_COLOR });
  let bodies = 0;
  for (const c of components) {
    if (c instanceof Body) {
      const drawn = c.shapes.length ? c.shapes : defaultBodyGeometry(c, value, PALETTE[bodies % PALETTE.length]);
      bodies++;
      for (const geometry of drawn) shapes.push({ name: c.path, kind: 'body', frame: index.get(c.frame_a)!, geometry });
    } else if (c instanceof FixedTranslation) {
      if (c.geometry) shapes.push({ name: c.path, kind: 'bar', frame: index.get(c.frame_a)!, geometry: c.geometry });
      else link(c, c.frame_a, c.frame_b);
    } else if (c instanceof FixedRotation) {
      link(c, c.frame_a, c.frame_b);
    } else if (c instanceof Joint) {
      joints.push({ name: c.path, type: jointType(c), frame: index.get(c.frame_a)!, axis: jointAxis(c) });
      if (c.geometry) shapes.push({ name: c.path, kind: 'joint', frame: index.get(c.frame_a)!, geometry: c.geometry });
    } else {
      const ab = framesAB(c);
      if (ab) link(c, ...ab);
    }
  }
  const parameters = Object.fromEntries(components.flatMap((c) => c.variables.filter((v) => v.kind === 'parameter').map((v) => [v.name, value(v.name)])));
  const worldSet = world ? index.get(world.frame_b)! : -1;
  const colliders = sceneColliders(model, components, index, worldSet);
  // the model's own floor (an MJCF plane), else its ground plane for contact
  const floor = world?.floor ?? groundFloor(model);
  return { gravity, frames, world: worldSet, shapes, links, joints, ...(colliders.length && { colliders }), ...(floor && { floor }), parameters };
}
