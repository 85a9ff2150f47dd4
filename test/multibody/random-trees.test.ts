// Random trees from the seeded generator: torn (M(q) qdd = h) and relaxed
// (O(n) recursion) forms compute the same accelerations, and relaxing breaks
// every tree into one block per joint, each torn to its joint's acceleration.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { prng, randomTree } from './random-tree.ts';

const TREES = 50;
/** equations in a relaxed block: a joint with its body, never the whole mechanism */
const BLOCK_BOUND = 60;

describe('random trees', () => {
  for (let k = 0; k < TREES; k++) {
    const seed = 2000 + k;
    const nb = 1 + (k % 12);
    it(`seed ${seed}, ${nb} bodies: torn and relaxed agree; relaxed is one block per joint`, () => {
      const tree = randomTree(seed, nb);
      const torn = compile(tree.mechanism, { mode: 'torn' });
      const relaxed = compile(randomTree(seed, nb).mechanism, { mode: 'relaxed' });
      const accelerations = tree.joints.map((j) => `der(${j}.qd)`).sort();

      // torn: the joint accelerations are the tearing variables, each once
      expect(torn.report.blocks.flatMap((b) => b.tearVariables).sort()).toEqual(accelerations);
      // relaxed: one block per joint, torn to exactly its acceleration
      const blocks = relaxed.report.blocks;
      expect(blocks.map((b) => b.tearing)).toEqual(blocks.map(() => 1));
      expect(blocks.flatMap((b) => b.tearVariables).sort()).toEqual(accelerations);
      expect(relaxed.report.relaxedLoops.map((l) => l.remainder)).toEqual(relaxed.report.relaxedLoops.map(() => 0));
      if (nb >= 6) expect(Math.max(...blocks.map((b) => b.size))).toBeLessThanOrEqual(BLOCK_BOUND);

      expect(relaxed.stateNames).toEqual(torn.stateNames);
      const rnd = prng(seed * 31 + 7);
      for (let s = 0; s < 5; s++) {
        const x = Float64Array.from(torn.stateNames, (n) => (n.endsWith('.qd') ? -2 + 4 * rnd() : -Math.PI + 2 * Math.PI * rnd()));
        for (const j of tree.joints) {
          const tau = -5 + 10 * rnd();
          torn.setInput(`${j}.tau`, tau);
          relaxed.setInput(`${j}.tau`, tau);
        }
        const a = new Float64Array(x.length),
          b = new Float64Array(x.length);
        torn.derivatives(0, x, a);
        relaxed.derivatives(0, x, b);
        const scale = Math.max(1, ...a.map(Math.abs));
        const err = Math.max(...a.map((v, i) => Math.abs(v - b[i])));
        expect(err, `state ${s}: x = [${x}], torn = [${a}], relaxed = [${b}]`).toBeLessThanOrEqual(1e-10 * scale);
      }
    });
  }
});
