// (spec) => the Kron Mechanism through the public API, and the oracle's
// description of the same mechanism: both read only the spec.
import { Mechanism, type Frame } from '../../src/index.ts';
import { type M3, type V3, add, identity, normalize, rotation } from '../../test/oracles/rnea.ts';
import { type AttachedFrame, type OracleTree, SPHERICAL_AXES } from '../../test/oracles/joint-tree.ts';
import type { LoopSystem } from '../../test/oracles/loops.ts';
import type { MechanismSpec, RotationSpec, SideSpec } from './spec.ts';

/** bar then rotation as one fixed transform: origin o and orientation E in the frame before them */
export function fixedTransform(bar: V3 | undefined, rot: RotationSpec | undefined): { E: M3; o: V3 } {
  const o: V3 = bar ?? [0, 0, 0];
  if (!rot) return { E: identity(), o };
  return { E: rotation(normalize(rot.axis), rot.angle), o: add(o, rot.r) };
}

// (spec) => the oracle's tree and cuts
export function oracleSystem(spec: MechanismSpec): LoopSystem {
  const tree: OracleTree = {
    gravity: spec.gravity,
    links: spec.links.map((l) => ({
      parent: l.parent,
      ...fixedTransform(l.bar, l.rotation),
      joint: l.joint,
      axes: l.joint === 'spherical' ? SPHERICAL_AXES : l.axes,
      body: l.body && { m: l.body.m, c: l.body.rcm, I: l.body.I },
      law: { c: l.c, q0: l.q0, d: l.d },
    })),
  };
  const side = (s: SideSpec): AttachedFrame => ({ link: s.link, ...fixedTransform(s.bar, s.rotation) });
  const cuts = spec.cuts.map((c) => ({ type: c.type, a: side(c.a), b: side(c.b), axes: c.axes, law: { c: c.c, q0: c.q0, d: c.d } }));
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
    const j = l.joint === 'revolute' ? m.revolute(`j${k}`, { axis: l.axes[0], q: l.q[0], c: l.c, q0: l.q0, d: l.d, state })
      : l.joint === 'prismatic' ? m.prismatic(`j${k}`, { axis: l.axes[0], q: l.q[0], c: l.c, q0: l.q0, d: l.d, state })
        : l.joint === 'spherical' ? m.spherical(`j${k}`, { q: l.q, d: l.d, state })
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
    const j = c.type === 'spherical' ? m.spherical(`c${k}`, { cut: true })
      : c.type === 'universal' ? m.universal(`c${k}`, { cut: true, axes: [c.axes[0], c.axes[1]] })
        : c.type === 'prismatic' || c.type === 'planar-prismatic' ? m.prismatic(`c${k}`, { cut: c.type === 'prismatic' ? true : 'planar', ...law })
          : m.revolute(`c${k}`, { cut: c.type === 'planar' ? 'planar' : true, ...law });
    m.connect(fa, j.frame_a);
    m.connect(fb, j.frame_b);
  });
  return m;
}
