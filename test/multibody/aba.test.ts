// The articulated-body oracle (test/oracles/aba.ts) against Kron and against
// the recursive Newton-Euler oracle: at random states and drive torques its
// accelerations equal Kron's der(jk.qd), torn and relaxed, and fed to RNEA
// they give back the torques. Then its operation counts against a hand tally.
import { describe, expect, it } from 'vitest';
import chain, { parameters as chainParameters } from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import { type AbaVariant, aba, chainTree } from '../oracles/aba.ts';
import { type RneaTree, rnea } from '../oracles/rnea.ts';
import { type TreeBody, prng, randomTree } from './random-tree.ts';
import { driveAtRandom } from './drive.ts';

interface Case {
  name: string;
  mechanism: () => Mechanism;
  tree: RneaTree;
  joints: string[];
  /** spring-damper parameters per joint (none: drive only) */
  passive?: readonly Pick<TreeBody, 'c' | 'q0' | 'd'>[];
}

const joints = (n: number) => Array.from({ length: n }, (_, i) => `j${i + 1}`);
const cases: Case[] = [1, 4, 8, 24, 40].map((n) => ({
  name: `chain n = ${n}`,
  mechanism: () => chain({ n }),
  tree: chainTree(n, chainParameters),
  joints: joints(n),
}));
// trees with general axes, prismatic joints, fixed rotations and branches: the general paths of the oracle
for (const seed of [1003, 1006, 1011, 1017]) {
  const nb = 3 + (seed % 7);
  const t = randomTree(seed, nb);
  cases.push({
    name: `random tree seed ${seed}, ${nb} bodies`,
    mechanism: () => randomTree(seed, nb).mechanism,
    tree: t.oracle,
    joints: t.joints,
    passive: t.bodies,
  });
}

const variants: AbaVariant[] = ['dense', 'compact'];

describe('articulated-body algorithm (oracle) = Kron forward dynamics; RNEA inverts it', () => {
  for (const c of cases) {
    for (const mode of ['relaxed', 'torn'] as const) {
      it(`${c.name}, ${mode}`, () => {
        const model = compile(c.mechanism(), { mode });
        const nb = c.joints.length;
        expect([...model.stateNames].sort()).toEqual(c.joints.flatMap((j) => [`${j}.q`, `${j}.qd`]).sort());
        const rnd = prng(104729 * nb + (mode === 'torn' ? 1 : 2));
        for (let s = 0; s < 5; s++) {
          const { q, qd, tau, total, qdd: kron } = driveAtRandom(model, c.joints, c.passive, rnd);
          const where = `state ${s}: q = [${q}], qd = [${qd}], tau = [${tau}]`;
          for (const variant of variants) {
            const { qdd } = aba(c.tree, q, qd, total, variant);
            const scale = Math.max(1, ...kron.map(Math.abs));
            const err = Math.max(...qdd.map((v, i) => Math.abs(v - kron[i])));
            expect(err, `${variant}, ${where}: aba = [${qdd}], kron = [${kron}]`).toBeLessThanOrEqual(1e-10 * scale);
            // inverse dynamics of the ABA accelerations returns the applied forces
            const back = rnea(c.tree, q, qd, qdd);
            const bias = rnea(
              c.tree,
              q,
              qd,
              qdd.map(() => 0),
            );
            const fscale = Math.max(1, ...total.map(Math.abs), ...bias.map(Math.abs));
            const ferr = Math.max(...back.map((v, i) => Math.abs(v - total[i])));
            expect(ferr, `${variant}, ${where}: rnea = [${back}], applied = [${total}]`).toBeLessThanOrEqual(1e-10 * fscale);
          }
        }
      });
    }
  }
});

// Hand tally for the chain (coordinate-axis revolute joints, no fixed rotations),
// per body, mul / add / div / fn; "(root: ...)" where the root body differs.
//                              dense                       compact
//   transforms: sin, cos       0 / 0 / 0 / 2               0 / 0 / 0 / 2
//     -E rx (skew: 2 per entry) 18 / 9                     -
//   pass 1: X v_p + S qd       36 / 31   (root: 0)         24 / 19  (root: 0)
//     c = v xm vJ              18 / 12                     18 / 12
//     pA = v xf (I v)          54 / 42                     54 / 42
//   pass 2: u, 1/D             0 / 1 / 1                   0 / 1 / 1
//     (not root) U D^-1        6 / 0                       6 / 0
//     Ia = IA - U D^-1 U^T     36 / 36                     36 / 36
//     pa = pA + Ia c + ...     42 / 42                     42 / 42
//     IA_p += X^T Ia X         432 / 396                   288 / 252
//     pA_p += X^T pa           36 / 36                     24 / 24
//   pass 3: a' = X a_p + c     36 / 36                     24 / 24
//     qdd, a = a' + S qdd      7 / 7                       7 / 7
// dense:   body 721 / 648 / 1 / 2, root 133 / 107 / 1 / 2 (transforms 18 / 9 / 0 / 2 each)
// compact: body 523 / 459 / 1 / 2, root 103 / 86 / 1 / 2 (transforms 0 / 0 / 0 / 2 each)
describe('articulated-body algorithm: operation counts on the chain', () => {
  const tally = {
    dense: { body: [721, 648, 1, 2], root: [133, 107, 1, 2], transforms: [18, 9, 0, 2] },
    compact: { body: [523, 459, 1, 2], root: [103, 86, 1, 2], transforms: [0, 0, 0, 2] },
  };
  for (const variant of variants) {
    it(`${variant}: the instrumented count equals the hand tally and does not depend on the state`, () => {
      const t = tally[variant];
      for (const n of [1, 2, 4, 8, 16]) {
        const tree = chainTree(n, chainParameters);
        const rnd = prng(n);
        const counts = [0, 1].map(() => {
          const q = tree.bodies.map(() => -3 + 6 * rnd());
          const { ops } = aba(
            tree,
            q,
            q.map(() => -2 + 4 * rnd()),
            q.map(() => -5 + 10 * rnd()),
            variant,
          );
          return ops;
        });
        expect(counts[1]).toEqual(counts[0]);
        const { total, transforms } = counts[0];
        expect([total.mul, total.add, total.div, total.fn]).toEqual(t.root.map((r, k) => r + (n - 1) * t.body[k]));
        expect([transforms.mul, transforms.add, transforms.div, transforms.fn]).toEqual(t.transforms.map((x) => n * x));
      }
    });
  }
});
