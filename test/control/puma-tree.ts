// The PUMA 560 of mechanisms/puma560.ts as a tree for the Newton-Euler oracle
// (test/oracles/rnea.ts), built from the DH table alone.
import { links } from '../../mechanisms/puma560.ts';
import { type M3, type RneaTree, type V3, add, identity, mulMM, mulMV, rotation } from '../oracles/rnea.ts';

/**
 * The PUMA as the oracle's tree: body k's frame is joint k's frame_b (after Rz(q_k));
 * link k hangs at DH frame k = Tz(d_k) Tx(a_k) Rx(alpha_k) of it, so its centre of mass
 * and inertia are carried through that transform, and joint k+1's frame_a is there too.
 */
export function pumaTree(g: number): RneaTree {
  const bodies = links.map((l, k) => {
    const Rx = rotation([1, 0, 0], l.alpha);
    const o: V3 = [l.a, 0, l.d];
    const Ic: M3 = mulMM(
      mulMM(Rx, [
        [l.I[0], 0, 0],
        [0, l.I[1], 0],
        [0, 0, l.I[2]],
      ]),
      transpose(Rx),
    );
    const prev = k === 0 ? undefined : links[k - 1];
    return {
      parent: k - 1,
      joint: 'revolute' as const,
      axis: [0, 0, 1] as V3,
      E: prev ? rotation([1, 0, 0], prev.alpha) : identity(),
      o: (prev ? [prev.a, 0, prev.d] : [0, 0, 0]) as V3,
      m: l.m,
      c: add(o, mulMV(Rx, [...l.r] as V3)),
      I: [Ic[0][0], Ic[1][1], Ic[2][2], Ic[0][1], Ic[0][2], Ic[1][2]] as [number, number, number, number, number, number],
    };
  });
  return { bodies, gravity: [0, 0, -g] };
}

const transpose = (A: M3): M3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => A[j][i])) as M3;
