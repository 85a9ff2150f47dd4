// The trees the dynamics tests share: seeded random trees (revolute and
// prismatic joints, springs and dampers; test/multibody/random-tree.ts) and
// the PUMA 560 of mechanisms/puma560.ts described for the oracles.
import type { Mechanism } from '../../src/library/multibody/index.ts';
import { type M3, type RneaBody, type RneaTree, type V3, add, identity, mulMM, mulMV, rotation } from '../oracles/rnea.ts';
import { type TreeBody, prng, randomTree } from '../multibody/random-tree.ts';
import { links } from '../../mechanisms/puma560.ts';

export { prng };

export type Passive = Pick<TreeBody, 'c' | 'q0' | 'd'>;

export interface Case {
  name: string;
  mechanism: () => Mechanism;
  oracle: RneaTree;
  /** spring-damper per joint (none: drive only) */
  passive?: readonly Passive[];
}

/** the spring-damper's share of the joint force: tau = (oracle's generalized force) + c (q - q0) + d qd */
export const passiveForce = (p: Passive | undefined, q: number, qd: number): number => (p ? p.c * (q - p.q0) + p.d * qd : 0);

/** 16 random trees of 2 to 12 bodies, seeds 2000.. (about a quarter of the joints prismatic) */
export const cases: Case[] = Array.from({ length: 16 }, (_, k) => {
  const seed = 2000 + k,
    nb = 2 + (k % 11);
  const t = randomTree(seed, nb);
  const kinds = t.bodies.map((b) => b.joint[0]).join('');
  return { name: `random tree seed ${seed}, ${nb} bodies (${kinds})`, mechanism: () => randomTree(seed, nb).mechanism, oracle: t.oracle, passive: t.bodies };
});

const transpose = (R: M3): M3 => [
  [R[0][0], R[1][0], R[2][0]],
  [R[0][1], R[1][1], R[2][1]],
  [R[0][2], R[1][2], R[2][2]],
];

/**
 * The PUMA 560 for the oracles. The model attaches link k at DH frame k,
 * which is joint k's frame_b followed by the fixed rotation dhk (translation
 * r = [a, 0, d], then Rx(alpha)); the oracle's body frame is the joint's
 * frame_b, so the centre of mass becomes r + Rx c and the inertia Rx I Rx^T,
 * and joint k + 1 sits at E = Rx(alpha_k), o = r_k.
 */
export function pumaTree(g: number): RneaTree {
  const Rx = (alpha: number) => rotation([1, 0, 0], alpha);
  const bodies = links.map((l, i): RneaBody => {
    const R = Rx(l.alpha),
      r: V3 = [l.a, 0, l.d];
    const I: M3 = mulMM(
      mulMM(R, [
        [l.I[0], 0, 0],
        [0, l.I[1], 0],
        [0, 0, l.I[2]],
      ]),
      transpose(R),
    );
    const prev = links[i - 1];
    return {
      parent: i - 1,
      joint: 'revolute',
      axis: [0, 0, 1],
      E: prev ? Rx(prev.alpha) : identity(),
      o: prev ? [prev.a, 0, prev.d] : [0, 0, 0],
      m: l.m,
      c: add(r, mulMV(R, [...l.r] as V3)),
      I: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]],
    };
  });
  return { bodies, gravity: [0, 0, -g] };
}
