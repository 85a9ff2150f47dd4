// Inverse after forward dynamics: the accelerations Kron computes (torn and
// relaxed) from random states and drive torques, fed to an independent
// recursive Newton-Euler (test/oracles/rnea.ts), give back the drives.
import { describe, expect, it } from 'vitest';
import chain, { parameters as chainParameters } from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import { type RneaTree, identity, rnea } from '../oracles/rnea.ts';
import { type TreeBody, prng, randomTree } from './random-tree.ts';
import { driveAtRandom } from './drive.ts';

// the chain of mechanisms/chain.ts, described for the oracle from its parameters:
// joint k about z (k odd) or y (k even), body CoM at L/2 along x, the next joint at L along x
function chainTree(n: number): RneaTree {
  const { L, m } = chainParameters;
  const bodies = Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    return {
      parent: i - 1,
      joint: 'revolute' as const,
      axis: (k % 2 ? [0, 0, 1] : [0, 1, 0]) as [number, number, number],
      E: identity(),
      o: (k === 1 ? [0, 0, 0] : [L, 0, 0]) as [number, number, number],
      m,
      c: [L / 2, 0, 0] as [number, number, number],
      I: [m * 1e-4, (m * L * L) / 12, (m * L * L) / 12, 0, 0, 0] as [number, number, number, number, number, number],
    };
  });
  return { bodies, gravity: [0, -9.80665, 0] };
}

interface Case {
  name: string;
  mechanism: () => Mechanism;
  oracle: RneaTree;
  joints: string[];
  /** spring-damper parameters per joint (none: drive only) */
  passive?: readonly Pick<TreeBody, 'c' | 'q0' | 'd'>[];
}

const cases: Case[] = [
  { name: 'chain n = 8', mechanism: () => chain({ n: 8 }), oracle: chainTree(8), joints: Array.from({ length: 8 }, (_, i) => `j${i + 1}`) },
];
for (let k = 0; k < 20; k++) {
  const seed = 1000 + k;
  const nb = 2 + (k % 9);
  const t = randomTree(seed, nb);
  cases.push({
    name: `random tree seed ${seed}, ${nb} bodies`,
    mechanism: () => randomTree(seed, nb).mechanism,
    oracle: t.oracle,
    joints: t.joints,
    passive: t.bodies,
  });
}

describe('inverse dynamics (RNEA) returns the drives of forward dynamics', () => {
  for (const c of cases) {
    for (const mode of ['torn', 'relaxed'] as const) {
      it(`${c.name}, ${mode}`, () => {
        const model = compile(c.mechanism(), { mode });
        expect([...model.stateNames].sort()).toEqual(c.joints.flatMap((j) => [`${j}.q`, `${j}.qd`]).sort());
        const rnd = prng(7919 * c.joints.length + (mode === 'torn' ? 1 : 2));
        for (let s = 0; s < 5; s++) {
          const { q, qd, tau, total: want, qdd: qdd } = driveAtRandom(model, c.joints, c.passive, rnd);
          const got = rnea(c.oracle, q, qd, qdd);
          const bias = rnea(
            c.oracle,
            q,
            qd,
            qdd.map(() => 0),
          );
          const scale = Math.max(1, ...want.map(Math.abs), ...bias.map(Math.abs));
          const err = Math.max(...got.map((g, i) => Math.abs(g - want[i])));
          expect(err, `state ${s}: q = [${q}], qd = [${qd}], tau = [${tau}], qdd = [${qdd}], rnea = [${got}]`).toBeLessThanOrEqual(1e-9 * scale);
        }
      });
    }
  }
});
