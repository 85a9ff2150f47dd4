// The oracles checked on problems with known answers before they judge the compiler.
import { describe, expect, it } from 'vitest';
import { matVec, solveDense } from './gauss.ts';
import { nodalAnalysis } from './nodal.ts';
import { bondGraphEq6, driveTrainAcceleration, driveTrainEq3 } from './closed-forms.ts';

describe('solveDense', () => {
  it('needs pivoting and solves exactly', () => {
    expect(solveDense([[0, 1], [1, 0]], [2, 3])).toEqual([3, 2]);
  });

  it('solves seeded random 8x8 systems to a small residual', () => {
    let s = 7;
    const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let trial = 0; trial < 5; trial++) {
      const A = Array.from({ length: 8 }, () => Array.from({ length: 8 }, rand));
      const x = Array.from({ length: 8 }, rand);
      const y = solveDense(A, matVec(A, x));
      y.forEach((yi, k) => expect(yi).toBeCloseTo(x[k], 10));
    }
  });

  it('rejects a singular matrix', () => {
    expect(() => solveDense([[1, 2], [2, 4]], [1, 1])).toThrow(/singular/);
  });
});

describe('nodalAnalysis', () => {
  it('solves a voltage divider', () => {
    const s = nodalAnalysis([{ name: 'Ra', p: 'in', n: 'mid', R: 1 }, { name: 'Rb', p: 'mid', n: 'gnd', R: 3 }], { in: 8, gnd: 0 });
    expect(s.v.get('mid')).toBeCloseTo(6, 14);
    expect(s.i.get('Ra')).toBeCloseTo(2, 14);
  });
});

describe('closed forms', () => {
  it('eq. 5 agrees with the 4x4 system of eq. 3', () => {
    const [, alpha2] = driveTrainEq3(1.5, 2, 3, 0.7);
    expect(alpha2).toBeCloseTo(driveTrainAcceleration(1.5, 2, 3, 0.7), 14);
  });

  it('eq. 6 satisfies eq. 4 with f2 = f1 - f3 and f4 = f3 - f5', () => {
    const p = { E: 10, R1: 1, R2: 2, R3: 3, R4: 4, R5: 5, C: 0.5 };
    const { e, f1, f3, f5 } = bondGraphEq6(p, 1);
    expect(e[1]).toBeCloseTo(p.R2 * (f1 - f3), 12);
    expect(p.E - e[0] - e[1]).toBeCloseTo(0, 12);
    expect(e[1] - e[2] - e[3]).toBeCloseTo(0, 12);
    expect(e[3] - e[4] - 1).toBeCloseTo(0, 12);
    expect(e[3]).toBeCloseTo(p.R4 * (f3 - f5), 12);
  });
});
