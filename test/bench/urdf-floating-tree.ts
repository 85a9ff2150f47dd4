// A URDF robot with its root on a free joint as the floating-base oracle's
// tree (test/oracles/floating-tree.ts), read from the URDF text here with
// regular expressions, so that the comparison in
// test/multibody/floating-mujoco.test.ts shares no code with Kron's URDF
// reader (src/io/urdf.ts) or its mechanism:
//   root link       link 0: free joint at the world's origin, the root's inertial
//   <joint>         a link under its parent link's: E = R(rpy) (URDF: yaw about
//                   z, pitch about y, roll about x, fixed axes), o = xyz,
//                   revolute / continuous about the unit axis, or fixed
//   <inertial>      m, c = origin xyz, I = R(rpy) I R(rpy)^T about the centre
//                   of mass in link coordinates
//   <dynamics>      damping d (Q = tau - d qd); limits and friction are left
//                   out as src/bench/robots.ts leaves them out
// The coordinates come with Kron's signal names, so states and inputs map
// by name: <root>_free.r, .Q, .v, .w, .f, .tau; <joint>.q, .qd, .tau.
import { type M3, type V3, identity, mulMM, rotation } from '../oracles/rnea.ts';
import { transpose3 } from '../oracles/spatial.ts';
import type { OracleBody } from '../oracles/joint-tree.ts';
import type { FloatingLink, FloatingTree } from '../oracles/floating-tree.ts';

export interface UrdfTree {
  tree: FloatingTree;
  /** Kron's name of each number of the oracle's q, v and tau, in the oracle's order */
  q: string[];
  v: string[];
  tau: string[];
}

interface UrdfJoint {
  name: string;
  type: string;
  parent: string;
  child: string;
  xyz: V3;
  rpy: V3;
  axis: V3;
  damping: number;
}

const attr = (xml: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1];
const numbers = (s: string | undefined, fallback: V3): V3 => (s === undefined ? fallback : (s.trim().split(/\s+/).map(Number) as V3));
const element = (xml: string, tag: string): string | undefined => new RegExp(`<${tag}\\b[^>]*?(/>|>[\\s\\S]*?</${tag}>)`).exec(xml)?.[0];
const ZERO: V3 = [0, 0, 0];

/** URDF's rpy: R = Rz(yaw) Ry(pitch) Rx(roll) */
const rpy = ([r, p, y]: V3): M3 => mulMM(mulMM(rotation([0, 0, 1], y), rotation([0, 1, 0], p)), rotation([1, 0, 0], r));

function inertial(link: string): OracleBody | undefined {
  const block = element(link, 'inertial');
  if (!block) return undefined;
  const origin = element(block, 'origin') ?? '';
  const i = element(block, 'inertia')!;
  const [xx, yy, zz, xy, xz, yz] = ['ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'].map((k) => Number(attr(i, k) ?? 0));
  const R = rpy(numbers(attr(origin, 'rpy'), ZERO));
  const I = mulMM(
    mulMM(R, [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ]),
    transpose3(R),
  );
  return {
    m: Number(attr(element(block, 'mass')!, 'value')),
    c: numbers(attr(origin, 'xyz'), ZERO),
    I: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]],
  };
}

function joint(xml: string): UrdfJoint {
  const origin = element(xml, 'origin') ?? '';
  const a = numbers(attr(element(xml, 'axis') ?? '', 'xyz'), [1, 0, 0]);
  const n = Math.hypot(...a);
  return {
    name: attr(xml, 'name')!,
    type: attr(xml, 'type')!,
    parent: attr(element(xml, 'parent')!, 'link')!,
    child: attr(element(xml, 'child')!, 'link')!,
    xyz: numbers(attr(origin, 'xyz'), ZERO),
    rpy: numbers(attr(origin, 'rpy'), ZERO),
    axis: a.map((x) => x / n) as V3,
    damping: Number(attr(element(xml, 'dynamics') ?? '', 'damping') ?? 0),
  };
}

// (URDF text, gravity) => the oracle's tree with the root on a free joint, and Kron's names of its coordinates
export function urdfFloatingTree(urdf: string, gravity: V3): UrdfTree {
  // <transmission> holds <joint name> elements of its own: not joints of the tree
  const text = urdf.replace(/<!--[\s\S]*?-->/g, '').replace(/<transmission\b[\s\S]*?<\/transmission>/g, '');
  const links = new Map([...text.matchAll(/<link\b[^>]*?(\/>|>[\s\S]*?<\/link>)/g)].map(([xml]) => [attr(xml, 'name')!, xml]));
  const joints = [...text.matchAll(/<joint\b[^>]*?>[\s\S]*?<\/joint>/g)].map(([xml]) => joint(xml));
  const children = new Set(joints.map((j) => j.child));
  const roots = [...links.keys()].filter((l) => !children.has(l));
  if (roots.length !== 1) throw new Error(`expected one root link, found ${roots.join(', ')}`);
  const free = `${roots[0]}_free`;
  const out: UrdfTree = {
    tree: { gravity, links: [] },
    q: [...[1, 2, 3].map((i) => `${free}.r[${i}]`), ...[1, 2, 3, 4].map((i) => `${free}.Q[${i}]`)],
    v: [...[1, 2, 3].map((i) => `${free}.v[${i}]`), ...[1, 2, 3].map((i) => `${free}.w[${i}]`)],
    tau: [...[1, 2, 3].map((i) => `${free}.f[${i}]`), ...[1, 2, 3].map((i) => `${free}.tau[${i}]`)],
  };
  const add = (link: FloatingLink) => out.tree.links.push(link) - 1;
  // depth first from the root: every parent gets its index before its children
  const visit = (name: string, index: number) => {
    for (const j of joints.filter((k) => k.parent === name)) {
      const moving = j.type === 'revolute' || j.type === 'continuous';
      if (!moving && j.type !== 'fixed') throw new Error(`joint ${j.name}: type ${j.type} is not read here`);
      const k = add({
        parent: index,
        E: rpy(j.rpy),
        o: j.xyz,
        joint: moving ? 'revolute' : 'fixed',
        axes: moving ? [j.axis] : undefined,
        body: inertial(links.get(j.child)!),
        law: moving ? { c: 0, q0: 0, d: j.damping } : undefined,
      });
      if (moving) (out.q.push(`${j.name}.q`), out.v.push(`${j.name}.qd`), out.tau.push(`${j.name}.tau`));
      visit(j.child, k);
    }
  };
  visit(roots[0], add({ parent: -1, E: identity(), o: ZERO, joint: 'free', body: inertial(links.get(roots[0])!) }));
  return out;
}
