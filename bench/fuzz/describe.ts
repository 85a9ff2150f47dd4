// (spec) => the Kron Mechanism through the public API, and the oracle's
// description of the same mechanism: both read only the spec.
//
// A mechanism with ball or free joints (the floating family) is described
// to the oracles twice: as a FloatingTree (test/oracles/floating-tree.ts,
// quaternions, for floating.ts on trees) and, for loops and for the
// singularity verdicts on the loops' assembly, as its Cardan equivalent
// (floating-cardan.ts: ball = Cardan spherical, free = three sliders and a
// Cardan spherical), a joint tree that loops.ts and loop-assembly.ts take.
// Coordinates then cross over by toCardan: the Cardan tree has one position
// per velocity, in the order of the velocity coordinates (spec.ts
// velocitySignals), so an index of a velocity coordinate is an index of the
// Cardan tree's coordinates.
import { Mechanism, type Frame } from '../../src/index.ts';
import { type M3, type V3, add, identity, normalize, rotation } from '../../test/oracles/rnea.ts';
import { type AttachedFrame, type OracleTree, SPHERICAL_AXES } from '../../test/oracles/joint-tree.ts';
import type { LoopSystem } from '../../test/oracles/loops.ts';
import type { FloatingTree } from '../../test/oracles/floating-tree.ts';
import { attach, cardanEquivalent, toCardan } from '../../test/oracles/floating-cardan.ts';
import type { MechanismSpec, RotationSpec, SideSpec } from './spec.ts';

/** does the mechanism have quaternion joints (ball, free, or a ball cut)? */
export const isFloating = (spec: MechanismSpec): boolean =>
  spec.links.some((l) => l.joint === 'ball' || l.joint === 'free') || spec.cuts.some((c) => c.type === 'ball');

/**
 * (spec) => the floating oracle's tree. laws false: no force law on ball
 * joints (the Cardan equivalent has no per-coordinate form of a quaternion
 * joint's damper; oracleCoordinates moves it into tau instead)
 */
export function floatingTree(spec: MechanismSpec, laws = true): FloatingTree {
  return {
    gravity: spec.gravity,
    links: spec.links.map((l) => {
      const quaternion = l.joint === 'ball' || l.joint === 'free';
      return {
        parent: l.parent,
        ...fixedTransform(l.bar, l.rotation),
        joint: l.joint,
        axes: l.joint === 'spherical' ? SPHERICAL_AXES : quaternion ? [] : l.axes,
        body: l.body && { m: l.body.m, c: l.body.rcm, I: l.body.I },
        law: quaternion && !laws ? undefined : { c: l.c, q0: l.q0, d: l.d },
      };
    }),
  };
}

/**
 * Kron's numbers (positions, velocities, generalized forces in the layout of
 * floating-tree.ts) => the coordinates of oracleSystem's tree: themselves,
 * or for a floating mechanism the Cardan equivalent's, with each ball
 * joint's damper moved into its tau (Q = tau - d w, floating-tree.ts)
 */
export function oracleCoordinates(
  spec: MechanismSpec,
  q: readonly number[],
  v: readonly number[],
  tau: readonly number[],
): { q: number[]; v: number[]; tau: number[] } {
  if (!isFloating(spec)) return { q: [...q], v: [...v], tau: [...tau] };
  let at = 0;
  const applied = [...tau];
  for (const l of spec.links) {
    const n = velocityCount(l.joint);
    if (l.joint === 'ball') for (let k = at; k < at + 3; k++) applied[k] -= l.d * v[k];
    at += n;
  }
  return toCardan(floatingTree(spec, false), q, v, applied);
}

/** velocity coordinates of a joint */
export const velocityCount = (joint: MechanismSpec['links'][number]['joint']): number =>
  ({ revolute: 1, prismatic: 1, universal: 2, spherical: 3, ball: 3, free: 6 })[joint];

/** the start values in the coordinates of oracleSystem's tree */
export function oracleStart(spec: MechanismSpec): number[] {
  const nv = spec.links.reduce((s, l) => s + velocityCount(l.joint), 0);
  const zero = new Array<number>(nv).fill(0);
  return oracleCoordinates(
    spec,
    spec.links.flatMap((l) => l.q),
    zero,
    zero,
  ).q;
}

/** a frame at (E, o) in link l's frame_b (l = -1: the world), on oracleSystem's tree */
export function oracleFrame(spec: MechanismSpec, l: number, E: M3, o: V3): AttachedFrame {
  return isFloating(spec) ? attach(cardanEquivalent(floatingTree(spec, false)), l, E, o) : { link: l, E, o };
}

/** bar then rotation as one fixed transform: origin o and orientation E in the frame before them */
export function fixedTransform(bar: V3 | undefined, rot: RotationSpec | undefined): { E: M3; o: V3 } {
  const o: V3 = bar ?? [0, 0, 0];
  if (!rot) return { E: identity(), o };
  return { E: rotation(normalize(rot.axis), rot.angle), o: add(o, rot.r) };
}

// (spec) => the oracle's tree and cuts (for a floating mechanism: its Cardan equivalent, header)
export function oracleSystem(spec: MechanismSpec): LoopSystem {
  if (isFloating(spec)) {
    const ce = cardanEquivalent(floatingTree(spec, false));
    const at = (s: SideSpec): AttachedFrame => {
      const f = fixedTransform(s.bar, s.rotation);
      return attach(ce, s.link, f.E, f.o);
    };
    // a ball cut constrains what a spherical cut does: the three translations
    const cuts = spec.cuts.map((c) => ({
      type: c.type === 'ball' ? ('spherical' as const) : c.type,
      a: at(c.a),
      b: at(c.b),
      axes: c.axes,
      law: { c: c.c, q0: c.q0, d: c.d },
    }));
    return { tree: ce.tree, cuts };
  }
  const tree: OracleTree = {
    gravity: spec.gravity,
    links: spec.links.map((l) => ({
      parent: l.parent,
      ...fixedTransform(l.bar, l.rotation),
      joint: l.joint as OracleTree['links'][number]['joint'],
      axes: l.joint === 'spherical' ? SPHERICAL_AXES : l.axes,
      body: l.body && { m: l.body.m, c: l.body.rcm, I: l.body.I },
      law: { c: l.c, q0: l.q0, d: l.d },
    })),
  };
  const side = (s: SideSpec): AttachedFrame => ({ link: s.link, ...fixedTransform(s.bar, s.rotation) });
  const cuts = spec.cuts.map((c) => ({
    type: c.type as LoopSystem['cuts'][number]['type'],
    a: side(c.a),
    b: side(c.b),
    axes: c.axes,
    law: { c: c.c, q0: c.q0, d: c.d },
  }));
  return { tree, cuts };
}

// (spec) => a fresh Mechanism (one per compile: a compiled model never shares a model with another)
export function buildMechanism(spec: MechanismSpec): Mechanism {
  const m = new Mechanism(`fuzz${spec.seed}`, { gravity: spec.gravity });
  const ends: Frame[] = [];
  const chain = (from: Frame, bar: V3 | undefined, rot: RotationSpec | undefined, name: string, rname: string): Frame => {
    let at = from;
    if (bar) {
      const b = m.bar(name, { r: bar });
      m.connect(at, b.frame_a);
      at = b.frame_b;
    }
    if (rot) {
      const r = m.rotation(rname, rot);
      m.connect(at, r.frame_a);
      at = r.frame_b;
    }
    return at;
  };
  spec.links.forEach((l, i) => {
    const k = i + 1;
    const at = chain(l.parent < 0 ? m.world.frame_b : ends[l.parent], l.bar, l.rotation, `o${k}`, `r${k}`);
    const state = l.state;
    const j =
      l.joint === 'revolute'
        ? m.revolute(`j${k}`, { axis: l.axes[0], q: l.q[0], c: l.c, q0: l.q0, d: l.d, state })
        : l.joint === 'prismatic'
          ? m.prismatic(`j${k}`, { axis: l.axes[0], q: l.q[0], c: l.c, q0: l.q0, d: l.d, state })
          : l.joint === 'spherical'
            ? m.spherical(`j${k}`, { q: l.q, d: l.d, state })
            : l.joint === 'ball'
              ? m.ball(`j${k}`, { Q: l.q, d: l.d })
              : l.joint === 'free'
                ? m.free(`j${k}`, { r: l.q.slice(0, 3), Q: l.q.slice(3) })
                : m.universal(`j${k}`, { axes: [l.axes[0], l.axes[1]], q: l.q, d: l.d, state });
    m.connect(at, j.frame_a);
    if (l.body) {
      const b = m.body(`b${k}`, { m: l.body.m, rcm: l.body.rcm, I: l.body.I });
      m.connect(j.frame_b, b.frame_a);
    }
    ends.push(j.frame_b);
  });
  spec.cuts.forEach((c, i) => {
    const k = i + 1;
    const fa = chain(c.a.link < 0 ? m.world.frame_b : ends[c.a.link], c.a.bar, c.a.rotation, `ca${k}`, `cra${k}`);
    const fb = chain(c.b.link < 0 ? m.world.frame_b : ends[c.b.link], c.b.bar, c.b.rotation, `cb${k}`, `crb${k}`);
    const law = { axis: c.axes[0], c: c.c, q0: c.q0, d: c.d };
    const j =
      c.type === 'spherical'
        ? m.spherical(`c${k}`, { cut: true })
        : c.type === 'ball'
          ? m.ball(`c${k}`, { cut: true })
          : c.type === 'universal'
            ? m.universal(`c${k}`, { cut: true, axes: [c.axes[0], c.axes[1]] })
            : c.type === 'prismatic' || c.type === 'planar-prismatic'
              ? m.prismatic(`c${k}`, { cut: c.type === 'prismatic' ? true : 'planar', ...law })
              : m.revolute(`c${k}`, { cut: c.type === 'planar' ? 'planar' : true, ...law });
    m.connect(fa, j.frame_a);
    m.connect(fb, j.frame_b);
  });
  return m;
}
