// Successive substitution on a torn nonlinear loop (tearing paper, the
// algorithms after "Branch tearing in bipartite graphs": each residue
// equation solved for its own tearing variable, all of them in turn, until
// nothing changes), the alternative to Newton that compile option
// tornSubstitution selects. A residue equation r_i = 0 is solved for z_i by
// one step along its own derivative, z_i -= r_i / (dr_i/dz_i), from the
// others' values of the last sweep (the paper's Jacobi order: the causal
// sequence y(z) runs once per sweep); for a residue linear in its own z_i
// that is its exact solution. Cheaper than Newton per sweep (no
// factorisation, the diagonal of the Jacobian only is used), it converges
// only when the loop's coupling is weak: a sweep that does not lower the
// largest residual, a vanishing diagonal or the sweep limit hands the
// evaluation to Newton from the same guess, and the fallbacks are counted.
//
// Kinematic loop closures keep Newton: their dead-point and assembly-branch
// tests are built on Newton's first step (runtime/newton.ts, newtonClosed).
import { type NewtonStep, Temp } from '../structure/plan-types.ts';
import type { Module } from './generate.ts';

/** how the substitution stops */
export interface SubstitutionOptions {
  /** sweeps before the evaluation goes to Newton (default 50) */
  readonly maxSweeps: number;
}

/** workspace slots of a substituted loop's statistics */
export interface SubstitutionSlots {
  /** the torn block (report.blocks index) */
  readonly block: number;
  readonly evaluations: number;
  readonly sweeps: number;
  readonly max: number;
  /** evaluations that Newton finished */
  readonly fallbacks: number;
}

export interface SubstitutionStats {
  block: number;
  evaluations: number;
  sweeps: number;
  meanSweeps: number;
  maxSweeps: number;
  /** evaluations in which the substitution did not converge and Newton solved the loop */
  fallbacks: number;
}

export function substitutionStats(s: SubstitutionSlots, w: ArrayLike<number>): SubstitutionStats {
  const evaluations = w[s.evaluations],
    sweeps = w[s.sweeps];
  return { block: s.block, evaluations, sweeps, meanSweeps: evaluations ? sweeps / evaluations : 0, maxSweeps: w[s.max], fallbacks: w[s.fallbacks] };
}

/**
 * The sweep's step as a function of the module: z_i -= r_i / J_ii for each
 * i in turn, false (the rest left) at a J_ii that vanishes. Returns its name;
 * the sweeps run in runtime/newton.ts (substituteSweeps).
 */
export function substitutionStep(mod: Module, s: NewtonStep, r: string, J: string): string {
  const k = s.z.length,
    zSlots = s.z.map((v) => mod.slots.slot(v));
  return mod.function('step', (sc) => {
    zSlots.forEach((z, i) => sc.line(`{ const d = ${J}[${i * k + i}]; if (!(Math.abs(d) > 0)) return false; w[${z}] -= ${r}[${i}] / d; }`));
    sc.line('return true;');
  });
}

/** the workspace slots of a substituted loop's statistics, registered */
export function substitutionSlots(mod: Module, s: NewtonStep, register: (slots: SubstitutionSlots) => void): SubstitutionSlots {
  const slot = (name: string) => mod.slots.slot(new Temp(`b${s.block}.substitution.${name}`));
  const stats: SubstitutionSlots = {
    block: s.block,
    evaluations: slot('evaluations'),
    sweeps: slot('sweeps'),
    max: slot('maxSweeps'),
    fallbacks: slot('fallbacks'),
  };
  register(stats);
  return stats;
}
