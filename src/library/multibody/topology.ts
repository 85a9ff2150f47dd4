// The spanning tree of a mechanism and the roles of its joints (tearing
// paper, "Mechanical systems with kinematic loops": the user "has to split up
// the joints of a mechanism into 3 categories"; here the builder does it
// unless the user marks them):
//   - rigid groups: frames joined by connections or by a rigid component
//     (body, bar, rotation, world) are one vertex; every joint is an edge;
//   - the spanning tree: breadth-first from the world over the joints not
//     marked cut; a joint that closes a loop becomes its cut joint;
//   - per loop, the cut joint imposes c constraints; c coordinates of the
//     loop's tree joints become "remaining" (rest) coordinates, determined by
//     the loop: joints marked state: false first, then the joints deepest in
//     the tree (farthest from the world), the later declared first, whole
//     joints before single axes of spherical and universal joints, the first
//     set with full rank at the start pose (chooseRest). Every other tree
//     joint, and every other axis of a partly determined one, is a state.
// A planar loop (revolutes with one common axis p, prismatic joints along
// the planes normal to it: planar-loop.ts) is cut with a planar cut:
// the revolute's (2 in-plane translations) or the prismatic's (1 in-plane
// translation and the turn about p); closing it with a spherical, universal,
// full revolute or full prismatic cut over-constrains it, which is an error.
// A Coupling (coupling.ts) determines its joint1: a rest joint of no loop.
// A point cut (a ball joint marked { cut: 'point' }, MJCF's connect) and a
// weld are told what the loop is: in a planar loop they keep their in-plane
// constraints (2 and 3), the rest being implied (closeInPlane).
import { ModelError } from '../../errors.ts';
import type { Component } from '../../model/index.ts';
import { FixedRotation } from './fixed-rotation.ts';
import { Frame } from './frame.ts';
import { Joint } from './joint.ts';
import { Prismatic } from './prismatic.ts';
import { Revolute } from './revolute.ts';
import { type LoopPlane, loopPlane, notPlanar } from './planar-loop.ts';
import { type Pose, addsFullRank, apply, difference, dot3, loopColumns, startPoses } from './start-pose.ts';
import { BallJoint } from './ball-joint.ts';
import { Weld } from './weld.ts';
import { Coupling } from './coupling.ts';

/** a kinematic loop the builder found, and the joint that cuts it */
export interface KinematicLoop {
  /** the joint that closes the loop */
  cut: string;
  /** 'user': marked cut by the model; 'builder': chosen */
  chosenBy: 'user' | 'builder';
  /** constraints the cut joint imposes (the size of the position and velocity loops it closes) */
  constraints: number;
  /** all the loop's joints turn about parallel axes (or slide across them): a planar loop */
  planar: boolean;
  /** the spanning-tree joints of the loop, from the cut's frame_a side to its frame_b side */
  joints: string[];
  /** tree joints of this loop whose coordinates the loop determines (all of them) */
  restJoints: string[];
  /** the coordinates this loop determines: whole joints ("j3") and single axes of joints whose other axes are states ("j5[2]") */
  restCoordinates: string[];
}

/** the spanning tree the builder chose: joints by role, and the kinematic loops it cut (the compile report's kinematics) */
export interface Topology {
  /** the kinematic loops, each closed by a cut joint */
  loops: KinematicLoop[];
  /** joints whose coordinates are states */
  stateJoints: string[];
  /** joints a loop determines (their coordinates follow the states) */
  restJoints: string[];
  /** every coordinate a loop determines, as in KinematicLoop.restCoordinates */
  restCoordinates: string[];
  /** joints cut open to make the tree: their constraints close the loops */
  cutJoints: string[];
}

interface Edge {
  joint: Joint;
  a: number;
  b: number;
  order: number;
}

/** (all components, the world's frame) => roles assigned to every joint, and the loops found */
export function assignJointRoles(components: readonly Component[], worldFrame: Frame): Topology {
  const frames = components.filter((c): c is Frame => c instanceof Frame);
  const groups = rigidGroups(components, frames);
  const vertex = (f: Frame) => groups.find(groups.index.get(f)!);
  const joints = components.filter((c): c is Joint => c instanceof Joint);
  const edges: Edge[] = joints.map((joint, order) => ({ joint, a: vertex(joint.frame_a), b: vertex(joint.frame_b), order }));
  const root = vertex(worldFrame);
  const tree = spanningTree(edges, root);
  checkConnected(frames, vertex, tree.depth);
  const inTree = new Set([...tree.parentEdge.values()]);
  const spanningJoints = [...inTree].map((e) => e.joint);
  const loops: KinematicLoop[] = [];
  const earlier: { cut: Joint; rest: RestUnit[] }[] = [];
  const rest = new Map<Joint, Set<number>>();
  // a coupling's joint1 is determined by it (coupling.ts): no loop chooses it, and it is not a state
  for (const c of components) if (c instanceof Coupling) rest.set(c.joint1, new Set([0]));
  const fixedRotationAt = new Set(components.filter((c) => c instanceof FixedRotation).map((c) => vertex((c as FixedRotation).frame_a)));
  const poses = startPoses(components, worldFrame, spanningJoints);
  for (const cut of edges.filter((e) => !inTree.has(e))) {
    const path = treePath(cut.a, cut.b, tree);
    // the tree part decides: a spherical or universal cut on parallel revolutes is still a planar loop
    const treeJoints = path.map((e) => e.joint);
    const vertices = [cut.a, cut.b, ...path.flatMap((e) => [e.a, e.b])];
    const withCut = cut.joint instanceof Revolute || cut.joint instanceof Prismatic ? [cut.joint, ...treeJoints] : treeJoints;
    const rotated = vertices.some((v) => fixedRotationAt.has(v));
    const plane = loopPlane(withCut, rotated, poses);
    const planar = plane !== undefined;
    const chosenBy = cut.joint.marks.cut ? 'user' : 'builder';
    cut.joint.role = 'cut';
    const loopNames = [cut.joint, ...path.map((e) => e.joint)].map((j) => j.path).join(', ');
    if (planar && chosenBy === 'builder' && withCut[0] === cut.joint) cut.joint.planarCut = true;
    if (planar && impliesOutOfPlane(cut.joint)) closeInPlane(cut.joint, plane, poses, vertices.includes(root) && !rotated, loopNames);
    // the plane's directions fixed in the world only where no fixed rotation turns the loop's frames
    if (planar && cut.joint instanceof Revolute) cut.joint.planeInWorld = vertices.includes(root) && !rotated;
    if (cut.joint instanceof Prismatic && cut.joint.planarCut) cut.joint.planeNormal = plane?.normalIn(cut.joint) ?? notPlanar(cut.joint, loopNames);
    const constraints = cut.joint.cutConstraints(cut.joint.planarCut);
    if (constraints === 0) {
      // every joint of the library can be cut; a joint class of the user's own may not
      throw new ModelError(`kinematic loop (${loopNames}) without a cut joint: ${cut.joint.path} closes it but cannot be cut`, {
        component: cut.joint.path,
        hint: 'mark a spherical, universal, revolute or prismatic joint of the loop as its cut joint: { cut: true }',
      });
    }
    if (planar && !cut.joint.planarCut) {
      throw new ModelError(
        `the kinematic loop (${loopNames}) is planar, and cutting it at ${cut.joint.path} over-constrains it: ${constraints} constraints where a planar loop has 2 independent ones, so the torn position Jacobian is singular`,
        {
          component: cut.joint.path,
          hint: "close the loop with a planar cut: a revolute or prismatic joint with { cut: 'planar' } (a revolute's constrains the two in-plane translations, a prismatic's the in-plane translation normal to its axis and the turn)",
        },
      );
    }
    // columns over this and the earlier loops' constraints: their rest joints follow when this loop's move
    const earlierRest = earlier.flatMap((l) => l.rest);
    const columns = loopColumns(
      components,
      worldFrame,
      spanningJoints,
      [...earlier.map((l) => l.cut), cut.joint],
      [...new Set([...treeJoints, ...earlierRest.map((u) => u.joint)])],
    );
    const chosen = chooseRest(path, constraints, rest, tree.depth, loopNames, cut.joint.path, columns && { columns, earlierRest });
    earlier.push({ cut: cut.joint, rest: chosen });
    const whole = chosen.filter((u) => u.axes.length === u.joint.dof);
    loops.push({
      cut: cut.joint.path,
      chosenBy,
      constraints,
      planar,
      joints: path.map((e) => e.joint.path),
      restJoints: whole.map((u) => u.joint.path),
      restCoordinates: chosen.flatMap(coordinateNames),
    });
  }
  for (const j of joints) {
    if (j.role === 'cut') continue;
    if (j.marks.state === false && rest.get(j)?.size !== j.dof) {
      throw new ModelError(`joint ${j.path} is marked state: false but lies on no kinematic loop`, {
        component: j.path,
        hint: 'only the tree joints of a loop can have coordinates that the loop determines; remove state: false',
      });
    }
    const axes = rest.get(j);
    j.role = axes?.size === j.dof ? 'rest' : 'state';
    // a joint with some axes determined by a loop stays a state joint with the others
    j.restAxes = axes && axes.size < j.dof ? axes : undefined;
  }
  const names = (role: string) => joints.filter((j) => j.role === role).map((j) => j.path);
  const restCoordinates = joints.flatMap((j) =>
    j.role === 'rest' ? [j.path] : coordinateNames({ joint: j, axes: [...(j.restAxes ?? [])].sort((x, y) => x - y) }),
  );
  return { loops, stateJoints: names('state'), restJoints: names('rest'), restCoordinates, cutJoints: names('cut') };
}

/** a cut that keeps only its in-plane constraints in a planar loop: a point cut (MJCF connect) or a weld */
const impliesOutOfPlane = (j: Joint): j is BallJoint | Weld => j instanceof Weld || (j instanceof BallJoint && j.pointCut);

/**
 * A point cut or weld in a planar loop keeps the constraints in the loop's
 * planes (cut.ts inPlane, weld.ts): the others hold at every position if
 * they hold at the start, since every joint of the loop moves in the planes;
 * where they do not, the loop cannot close: a ModelError.
 */
function closeInPlane(cut: BallJoint | Weld, plane: LoopPlane, poses: ReadonlyMap<Frame, Pose> | undefined, inWorld: boolean, loopNames: string): void {
  const normal = plane.normalIn(cut);
  cut.planarCut = true;
  cut.plane = { normal, inWorld };
  const a = poses?.get(cut.frame_a),
    b = poses?.get(cut.frame_b);
  if (!a || !b) return;
  const p = apply(a.R, normal),
    d = difference(b.p, a.p);
  const off = Math.abs(dot3(p, d));
  // a weld's frame_b must not be tilted out of the planes either
  const tilt = cut instanceof Weld ? Math.hypot(...difference(apply(b.R, normal), p)) : 0;
  if (off > 1e-9 * Math.max(1, Math.hypot(...d)) || tilt > 1e-9) {
    throw new ModelError(
      `the planar kinematic loop (${loopNames}) cannot close at ${cut.path}: its frames are ${off > 1e-9 ? `${off.toPrecision(3)} m apart along the planes' normal` : `tilted ${tilt.toPrecision(3)} rad out of the planes`}, which no joint of the loop can change`,
      {
        component: cut.path,
        hint: 'a planar loop moves in parallel planes: place the two frames of the cut in the same plane (or make the loop spatial)',
      },
    );
  }
}

/** union-find over frames: connections and rigid components join them */
export function rigidGroups(components: readonly Component[], frames: Frame[]) {
  const index = new Map<Frame, number>(frames.map((f, i) => [f, i]));
  const parent = frames.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (x: Frame, y: Frame, why: () => string) => {
    const a = find(index.get(x)!),
      b = find(index.get(y)!);
    if (a === b) {
      throw new ModelError(`${why()} closes a loop without a joint: ${x.path} and ${y.path} are already rigidly connected`, {
        component: x.path,
        hint: 'remove the redundant connection, or close the loop through a joint (a kinematic loop needs a joint to cut)',
      });
    }
    parent[a] = b;
  };
  for (const c of components) {
    // a primitive rigid element (equations of its own, not a joint) holds its frames together
    if (c instanceof Joint || c instanceof Frame || c.equations.length === 0) continue;
    const own = c.children.filter((k): k is Frame => k instanceof Frame);
    for (let i = 1; i < own.length; i++) union(own[0], own[i], () => c.path);
  }
  for (const c of components) {
    for (const [x, y] of c.connections) {
      if (x.owner instanceof Frame && y.owner instanceof Frame) union(x.owner, y.owner, () => `connect(${x.name}, ${y.name})`);
    }
  }
  return { index, find };
}

interface Tree {
  /** vertex -> the tree edge that reached it */
  parentEdge: Map<number, Edge>;
  depth: Map<number, number>;
}

/** breadth-first from the world over joints not marked cut, in declaration order */
function spanningTree(edges: Edge[], root: number): Tree {
  const parentEdge = new Map<number, Edge>();
  const depth = new Map<number, number>([[root, 0]]);
  const adjacent = new Map<number, Edge[]>();
  for (const e of edges) {
    if (e.joint.marks.cut) continue;
    for (const v of [e.a, e.b]) adjacent.set(v, [...(adjacent.get(v) ?? []), e]);
  }
  const queue = [root];
  for (let k = 0; k < queue.length; k++) {
    const v = queue[k];
    for (const e of adjacent.get(v) ?? []) {
      const w = e.a === v ? e.b : e.a;
      if (depth.has(w)) continue;
      depth.set(w, depth.get(v)! + 1);
      parentEdge.set(w, e);
      queue.push(w);
    }
  }
  return { parentEdge, depth };
}

function checkConnected(frames: Frame[], vertex: (f: Frame) => number, depth: Map<number, number>): void {
  const loose = frames.find((f) => !depth.has(vertex(f)));
  if (loose) {
    const owner = loose.parent?.path ?? loose.path;
    throw new ModelError(`${owner} is not connected to the world: ${loose.path} has no path of connections and joints to world.frame_b`, {
      component: owner,
      hint: `connect ${loose.path} (e.g. mech.connect(someJoint.frame_b, ${loose.path}))`,
    });
  }
}

/** tree edges between vertices a and b: up from a to the common ancestor, then down to b */
function treePath(a: number, b: number, tree: Tree): Edge[] {
  const up = (v: number) => {
    const e = tree.parentEdge.get(v)!;
    return { e, next: e.a === v ? e.b : e.a };
  };
  const fromA: Edge[] = [],
    fromB: Edge[] = [];
  while (a !== b) {
    if (tree.depth.get(a)! >= tree.depth.get(b)!) {
      const s = up(a);
      fromA.push(s.e);
      a = s.next;
    } else {
      const s = up(b);
      fromB.push(s.e);
      b = s.next;
    }
  }
  return [...fromA, ...fromB.reverse()];
}

/** coordinates of one joint that a loop determines: all of its axes, or some (0-based) */
interface RestUnit {
  joint: Joint;
  axes: number[];
}

const allAxes = (j: Joint): number[] => Array.from({ length: j.dof }, (_, i) => i);
/** its coordinates' names: "j3" for a whole joint, "j3[2]" for one axis of one whose other axes are states (1-based, as its variables q[2]) */
const coordinateNames = (u: RestUnit): string[] => (u.axes.length === u.joint.dof ? [u.joint.path] : u.axes.map((i) => `${u.joint.path}[${i + 1}]`));

/**
 * `constraints` coordinates of the loop's tree joints become rest coordinates
 * (rule in the header): the joints marked state: false, then the first set
 * in that order whose coordinates add up to the constraints and, where the
 * start pose is known, whose columns of the cut's constraint Jacobian have
 * full rank (start-pose.ts). Whole joints first; when no set of whole joints
 * has full rank, single axes of the spherical and universal joints (a ball
 * joint next to a ball-joint cut: two of its axes, with the third a state).
 * When no set of coordinates has full rank, the loop cannot be closed: a
 * ModelError.
 */
function chooseRest(
  path: Edge[],
  constraints: number,
  rest: Map<Joint, Set<number>>,
  depth: Map<number, number>,
  loopNames: string,
  cut: string,
  rank?: RankData,
): RestUnit[] {
  const depthOf = (e: Edge) => Math.max(depth.get(e.a)!, depth.get(e.b)!);
  const marked = path.filter((e) => e.joint.marks.state === false && !rest.has(e.joint)).map((e) => ({ joint: e.joint, axes: allAxes(e.joint) }));
  const free = path
    .filter((e) => e.joint.marks.state === undefined && e.joint.canBeRest)
    .sort((x, y) => depthOf(y) - depthOf(x) || y.order - x.order)
    .map((e) => e.joint);
  const wholes = free.filter((j) => !rest.has(j)).map((joint) => ({ joint, axes: allAxes(joint) }));
  const singles = free.flatMap((joint) =>
    allAxes(joint)
      .filter((i) => !rest.get(joint)?.has(i))
      .map((i) => ({ joint, axes: [i] })),
  );
  const markedDof = marked.reduce((n, u) => n + u.axes.length, 0);
  const need = constraints - markedDof;
  const picked = pickRest(wholes, need, marked, rank) ?? (rank && pickRest(singles, need, marked, rank));
  if (!picked && rank && pickRest(singles, need, marked)) {
    // coordinates enough by their count, but none of those sets can move the cut in every constrained direction
    throw new ModelError(
      `the kinematic loop (${loopNames}) cut at ${cut} cannot be closed by its tree joints: every set of ${constraints} of their coordinates leaves a constrained direction of the cut that they cannot move (at the start position)`,
      {
        component: cut,
        hint: 'cut the loop at another joint, mark the joints the loop should determine with { state: false } (their coordinates must move the cut in every direction it constrains), or check that the start position is not a dead point',
      },
    );
  }
  const chosen = [...marked, ...(picked ?? [])];
  const count = chosen.reduce((n, u) => n + u.axes.length, 0);
  if (count !== constraints) {
    const open = path.filter((e) => e.joint.marks.state !== true && !rest.has(e.joint));
    const available = open.map((e) => `${e.joint.path} (${e.joint.dof})`);
    const dof = open.reduce((n, e) => n + e.joint.dof, 0);
    const why =
      count > constraints
        ? `${count} coordinates of its tree joints are marked to be determined by them`
        : dof < constraints
          ? `its tree joints have ${dof === 0 ? 'no coordinates' : `only ${dof} coordinate${dof > 1 ? 's' : ''}`} it may determine`
          : `no set of its tree joints has exactly ${constraints} coordinates to determine`;
    throw new ModelError(`the kinematic loop (${loopNames}) cut at ${cut} has ${constraints} constraints, but ${why}`, {
      component: cut,
      hint:
        count > constraints
          ? `too many joints are marked state: false; joints with coordinates available: ${available.join(', ')}`
          : `the loop is over-constrained or too many of its joints are states: free a joint marked state: true, or cut the loop with a joint that constrains less (available: ${available.join(', ') || 'none'})`,
    });
  }
  for (const u of chosen) rest.set(u.joint, new Set([...(rest.get(u.joint) ?? []), ...u.axes]));
  return chosen;
}

/**
 * Columns of the stacked position constraints of this loop and the loops
 * chosen before it, per coordinate of a candidate joint; the earlier loops'
 * rest coordinates start the basis: the rest coordinates of all loops together
 * must have full rank (a second loop through the first one's joints moves
 * them, and the first loop's rest joints follow).
 */
interface RankData {
  columns: Map<Joint, number[][]>;
  earlierRest: RestUnit[];
}

const unitColumns = (columns: Map<Joint, number[][]>, u: RestUnit): number[][] => u.axes.map((i) => columns.get(u.joint)?.[i] ?? []).filter((c) => c.length);

/**
 * The first subset of `free` (in its order, each unit taken before it is left
 * out) with `need` coordinates, whose columns with the earlier rest and the
 * marked joints' have full rank when `rank` is given; undefined when there is none.
 */
function pickRest(free: RestUnit[], need: number, marked: RestUnit[], rank?: RankData): RestUnit[] | undefined {
  if (need < 0) return undefined;
  const columns = rank?.columns;
  const scale = columns ? Math.max(...[...columns.values()].flat().map((c) => Math.hypot(...c)), 0) : 0;
  const start: number[][] = [];
  if (columns) for (const u of [...rank.earlierRest, ...marked]) addsFullRank(start, unitColumns(columns, u), scale);
  const pick: RestUnit[] = [];
  let visits = 0;
  const search = (i: number, left: number, basis: number[][]): RestUnit[] | undefined => {
    if (left === 0) return [...pick];
    if (i === free.length || ++visits > 20000) return undefined;
    const u = free[i];
    if (u.axes.length <= left) {
      const next = basis.map((b) => [...b]);
      if (!columns || addsFullRank(next, unitColumns(columns, u), scale)) {
        pick.push(u);
        const found = search(i + 1, left - u.axes.length, next);
        pick.pop();
        if (found) return found;
      }
    }
    return search(i + 1, left, basis);
  };
  return search(0, need, start);
}
