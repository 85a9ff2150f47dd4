// Sweep and prune finds exactly the overlapping pairs of bounds that all
// n^2/2 comparisons find (seeded random scenes, moved and found again), and
// tests far fewer than n^2/2 pairs in a spread-out scene; bounds enclose
// every surface point of their shape.
import { describe, expect, it } from 'vitest';
import { SweepAndPrune } from '../../src/contact/broad-phase.ts';
import { boundsOf } from '../../src/contact/bounds.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { rng } from '../structure/helpers.ts';
import { poses, rodrigues, surfaceSamples, world } from './geometry-oracle.ts';

// every pair (i < j) of boxes that overlap on all three axes, by brute force
function bruteForce(b: Float64Array, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if ([0, 1, 2].every((a) => b[6 * i + a] <= b[6 * j + 3 + a] && b[6 * j + a] <= b[6 * i + 3 + a])) out.push(`${i}-${j}`);
    }
  return out;
}

const found = (s: SweepAndPrune) => Array.from({ length: s.pairCount }, (_, k) => `${s.pairs[2 * k]}-${s.pairs[2 * k + 1]}`).sort();

function randomBoxes(r: () => number, n: number, spread: number): Float64Array {
  const b = new Float64Array(6 * n);
  for (let g = 0; g < n; g++)
    for (let i = 0; i < 3; i++) {
      const c = spread * r(),
        h = 0.05 + 0.5 * r();
      ((b[6 * g + i] = c - h), (b[6 * g + 3 + i] = c + h));
    }
  return b;
}

describe('sweep and prune', () => {
  it('finds exactly the pairs brute force finds, scene after scene and after moving', () => {
    const r = rng(2026);
    for (let scene = 0; scene < 40; scene++) {
      const n = 1 + Math.floor(60 * r());
      const sap = new SweepAndPrune(n);
      let b = randomBoxes(r, n, 1 + 10 * r());
      expect(sap.find(b), `scene ${scene}`).toBeUndefined();
      expect(found(sap)).toEqual(bruteForce(b, n).sort());
      // moved a little: the kept order is re-sorted by insertion
      b = b.map((v) => v + 0.1 * (r() - 0.5));
      for (let g = 0; g < n; g++)
        for (let i = 0; i < 3; i++) if (b[6 * g + i] > b[6 * g + 3 + i]) [b[6 * g + i], b[6 * g + 3 + i]] = [b[6 * g + 3 + i], b[6 * g + i]];
      sap.find(b);
      expect(found(sap)).toEqual(bruteForce(b, n).sort());
    }
  });

  it('100 bodies spread over a floor: a few hundred narrow tests, not 4950', () => {
    const r = rng(7),
      n = 100,
      b = new Float64Array(6 * n);
    // unit-sized bodies on a 20 m x 20 m floor, all at about the same height
    for (let g = 0; g < n; g++) {
      const c = [20 * r(), 0.5 + 0.1 * r(), 20 * r()];
      for (let i = 0; i < 3; i++) ((b[6 * g + i] = c[i] - 0.5), (b[6 * g + 3 + i] = c[i] + 0.5));
    }
    const sap = new SweepAndPrune(n);
    sap.find(b);
    expect(found(sap)).toEqual(bruteForce(b, n).sort());
    expect(sap.pairCount).toBeLessThan(100);
  });
});

describe('bounds', () => {
  it('enclose every surface point of the shape, and touch the farthest', () => {
    const r = rng(11);
    const shapes: CollisionShape[] = [
      { type: 'sphere', radius: 0.4 },
      { type: 'capsule', radius: 0.2, length: 1.3 },
      { type: 'box', size: [0.3, 1, 2] },
      { type: 'cylinder', radius: 0.6, length: 0.4 },
    ];
    for (let trial = 0; trial < 20; trial++)
      for (const s of shapes) {
        const pose = poses({ R: rodrigues([r() - 0.5, r() - 0.5, r() - 0.5], 7 * r()), p: [r(), r(), r()] });
        const b = boundsOf(new Float64Array(6), 0, s, pose, 0, 0);
        const pts = surfaceSamples(s, 3000).map((y) => world(pose, 0, y));
        for (let i = 0; i < 3; i++) {
          const lo = Math.min(...pts.map((p) => p[i])),
            hi = Math.max(...pts.map((p) => p[i]));
          (expect(lo).toBeGreaterThanOrEqual(b[i] - 1e-12), expect(hi).toBeLessThanOrEqual(b[3 + i] + 1e-12));
          // tight: within the samples' resolution of the farthest point
          (expect(lo - b[i]).toBeLessThan(0.02), expect(b[3 + i] - hi).toBeLessThan(0.02));
        }
      }
  });
});
