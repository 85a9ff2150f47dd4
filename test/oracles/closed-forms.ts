// Oracles: closed forms and small dense solves taken straight from the papers.
import { solveDense } from './gauss.ts';

// relaxing paper eq. 5: (J2 + i^2 J1) der(w2) = i tau_in
export function driveTrainAcceleration(J1: number, J2: number, i: number, tau: number): number {
  return (i * tau) / (J2 + i * i * J1);
}

// relaxing paper eq. 3: the untorn 4x4 system for [alpha1, alpha2, tau1, tau2],
// with tau1 the torque from s1 into the gear and tau2 the torque from the gear into s2
export function driveTrainEq3(J1: number, J2: number, i: number, tau: number): number[] {
  const A = [
    [J1, 0, 1, 0], // J1 alpha1 = tau_in - tau1
    [0, J2, 0, -1], // J2 alpha2 = tau2
    [-1, i, 0, 0], // alpha1 = i alpha2
    [0, 0, i, -1], // i tau1 = tau2
  ];
  return solveDense(A, [tau, 0, 0, 0]);
}

export interface BondGraphParameters {
  E: number;
  R1: number;
  R2: number;
  R3: number;
  R4: number;
  R5: number;
  C: number;
}

// bond graph paper eq. 6 for [e1..e5, f1, f3, f5] at capacitor effort eC, and eq. 4.i der(eC) = f5 / C
export function bondGraphEq6(p: BondGraphParameters, eC: number): { e: number[]; f1: number; f3: number; f5: number; deC: number } {
  const { R1, R2, R3, R4, R5 } = p;
  const A = [
    [1, 0, 0, 0, 0, -R1, 0, 0],
    [0, 1, 0, 0, 0, -R2, R2, 0],
    [0, 0, 1, 0, 0, 0, -R3, 0],
    [0, 0, 0, 1, 0, 0, -R4, R4],
    [0, 0, 0, 0, 1, 0, 0, -R5],
    [1, 1, 0, 0, 0, 0, 0, 0],
    [0, 1, -1, -1, 0, 0, 0, 0],
    [0, 0, 0, 1, -1, 0, 0, 0],
  ];
  const x = solveDense(A, [0, 0, 0, 0, 0, p.E, 0, eC]);
  return { e: x.slice(0, 5), f1: x[5], f3: x[6], f5: x[7], deC: x[7] / p.C };
}
