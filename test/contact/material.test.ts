// Layer 1: shapes checked, the pair rule for contact parameters, the filter.
import { describe, expect, it } from 'vitest';
import { checkShape, boundingRadius } from '../../src/contact/shapes.ts';
import { checkMaterial, effectiveMass, pairMaterial } from '../../src/contact/material.ts';
import { mayTouch, pairKey } from '../../src/contact/filter.ts';
import { ModelError } from '../../src/errors.ts';
import { rodrigues, sdf, surfaceSamples } from './geometry-oracle.ts';

describe('collision shapes', () => {
  it('refuses bad dimensions with a ModelError naming the owner', () => {
    expect(() => checkShape({ type: 'sphere', radius: -1 }, 'ball')).toThrow(ModelError);
    expect(() => checkShape({ type: 'sphere', radius: -1 }, 'ball')).toThrow(/collision geometry of ball: sphere radius -1/);
    expect(() => checkShape({ type: 'box', size: [1, 0, 1] }, 'b')).toThrow(/size\[2\] 0/);
    expect(() => checkShape({ type: 'cone' } as never, 'b')).toThrow(/"cone" is not known/);
    expect(() => checkShape({ type: 'capsule', radius: 0.1, length: 0 }, 'c')).not.toThrow();
    expect(() => checkShape({ type: 'cylinder', radius: 0.1, length: 0 }, 'c')).toThrow(/length 0/);
  });

  it('bounds every surface point by the bounding radius', () => {
    const shapes = [
      { type: 'sphere', radius: 0.3 },
      { type: 'capsule', radius: 0.2, length: 1 },
      { type: 'box', size: [1, 2, 3] },
      { type: 'cylinder', radius: 0.5, length: 2 },
    ] as const;
    for (const s of shapes) {
      const far = Math.max(...surfaceSamples(s, 500).map((p) => Math.hypot(...p)));
      expect(far).toBeLessThanOrEqual(boundingRadius(s) + 1e-12);
      expect(far).toBeGreaterThan(0.97 * boundingRadius(s));
      // and the samples are on the surface
      for (const p of surfaceSamples(s, 200)) expect(Math.abs(sdf(s, p))).toBeLessThan(1e-12);
    }
    expect(boundingRadius({ type: 'plane' })).toBe(Infinity);
    expect(rodrigues([0, 0, 1], 0)[0][0]).toBe(1);
  });
});

describe('contact parameters', () => {
  it('MuJoCo solref: k = m / (tc zeta)^2, c = 2 m / tc', () => {
    const p = pairMaterial({ timeConstant: 0.02, dampingRatio: 0.5 }, undefined, 3);
    expect(p.k).toBeCloseTo(3 / (0.01 * 0.01), 9);
    expect(p.c).toBeCloseTo(300, 12);
    // the undamped frequency sqrt(k/m) = 1 / (tc zeta)
    expect(Math.sqrt(p.k / 3)).toBeCloseTo(1 / 0.01, 9);
  });

  it("a side without parameters takes the other side's; none at all: MuJoCo's defaults", () => {
    expect(pairMaterial(undefined, { stiffness: 1e5, damping: 10, friction: 0.3 }, 2)).toEqual({ k: 1e5, c: 10, mu: 0.3, law: 'linear', n: 1.5 });
    const d = pairMaterial(undefined, undefined, 2);
    (expect(d.k).toBeCloseTo(2 / 0.02 ** 2, 9), expect(d.mu).toBe(1));
  });

  it('two sides: springs in series, damping weighted alike, the larger friction', () => {
    const p = pairMaterial({ stiffness: 1e4, damping: 10, friction: 0.2 }, { stiffness: 3e4, damping: 50, friction: 0.7 }, 1);
    expect(p.k).toBeCloseTo(7500, 9);
    expect(p.c).toBeCloseTo((3e4 * 10 + 1e4 * 50) / 4e4, 12);
    expect(p.mu).toBe(0.7);
    expect(() => pairMaterial({ stiffness: 1, law: 'hunt-crossley' }, { stiffness: 1 }, 1)).toThrow(/mixes laws/);
  });

  it('refuses contradictory or bad parameters', () => {
    expect(() => checkMaterial({ stiffness: 1e4, timeConstant: 0.02 }, 'foot')).toThrow(/both stiffness\/damping and timeConstant/);
    expect(() => checkMaterial({ friction: -1 }, 'foot')).toThrow(/contact parameters of foot: friction -1/);
    expect(() => checkMaterial({ damping: 3 }, 'foot')).toThrow(/damping without stiffness/);
    expect(() => checkMaterial({ law: 'soft' as never }, 'foot')).toThrow(/law "soft"/);
  });

  it('effective mass: m1 m2 / (m1 + m2), the world infinitely heavy', () => {
    expect(effectiveMass(2, 2)).toBe(1);
    expect(effectiveMass(Infinity, 5)).toBe(5);
  });
});

describe('filter', () => {
  const all = { contype: 1, conaffinity: 1 };
  it('contype/conaffinity as MuJoCo, never one body or a parent and child', () => {
    const adjacent = new Set([pairKey(1, 2)]);
    expect(mayTouch(all, all, 0, 1, adjacent)).toBe(true);
    expect(mayTouch(all, all, 2, 1, adjacent)).toBe(false);
    expect(mayTouch(all, all, 3, 3, adjacent)).toBe(false);
    expect(mayTouch({ contype: 2, conaffinity: 0 }, { contype: 0, conaffinity: 1 }, 0, 3, adjacent)).toBe(false);
    expect(mayTouch({ contype: 2, conaffinity: 0 }, { contype: 0, conaffinity: 2 }, 0, 3, adjacent)).toBe(true);
  });
});
