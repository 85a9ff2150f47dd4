// Newton's method on a torn nonlinear loop (tearing paper: Newton on the
// tearing variables): the loop's straight-line pieces as functions of the
// generated module, the causal sequence with the residues into r and the
// Jacobian into J, and a record of the block that the run-time driver
// newtonSolve is called with (runtime/newton.ts: damped and non-monotone,
// restarted with full steps, then Levenberg-Marquardt, and for a kinematic
// loop's position level the dead-point and assembly-branch tests).
import { type NewtonStep, Temp } from '../structure/plan-types.ts';
import type { Module } from './generate.ts';
import { addOps, luOps } from './ops.ts';
import { type SubstitutionOptions, type SubstitutionSlots, substitutionSlots, substitutionStep } from './substitution.ts';

// tearing paper: Newton on the tearing variables, warm-started from the last solution kept in w
// with `substitution` (not for a kinematic loop's closure): successive substitution first (substitution.ts)
export function newton(mod: Module, s: NewtonStep, substitution?: SubstitutionOptions, register?: (slots: SubstitutionSlots) => void): string {
  const k = s.z.length,
    b = s.block,
    r = `r${b}`,
    J = `J${b}`;
  mod.uses('doubles', 'newtonBlock', 'newtonSolve');
  mod.parts.push(`const ${r} = doubles(${k}), ${J} = doubles(${k * k});`);
  const y = mod.assigns(s.y, 'y');
  const residual = mod.fillArrays([[r, s.residuals]]);
  const jacobian = [...mod.assigns(s.jacobianPrelude, 'd'), ...mod.fillArrays([[J, s.jacobian]])];
  const zSlots = s.z.map((v) => mod.slots.slot(v));
  // a kinematic loop's branch record (runtime/newton.ts, newtonClosed): its last two solves' times and determinants, when it started, the least at the last time
  const record = s.closure ? ['t1', 'det1', 't0', 'det0', 'started', 'least1'].map((n) => mod.slots.slot(new Temp(`b${b}.${n}`))) : [];
  const stats = substitution && !s.closure && register ? substitutionSlots(mod, s, register) : undefined;
  const residualFn = mod.function('residual', (sc) => [...y, ...residual].forEach((l) => sc.line(l)));
  const jacobianFn = mod.function('jacobian', (sc) => jacobian.forEach((l) => sc.line(l)));
  const sweeps = stats
    ? `${substitution!.maxSweeps}, Int32Array.of(${stats.evaluations}, ${stats.sweeps}, ${stats.max}, ${stats.fallbacks}), ${substitutionStep(mod, s, r, J)}`
    : '0, Int32Array.of(), null';
  const loop = `newtonLoop${b}`;
  mod.parts.push(
    `const ${loop} = newtonBlock(${k}, ${b}, Int32Array.of(${zSlots.join(', ')}), ${r}, ${J}, ${residualFn}, ${jacobianFn}, fail, Int32Array.of(${record.join(', ')}), ${sweeps});`,
  );
  const name = mod.function('newton', (sc) => sc.line(`newtonSolve(${loop}, t, x, u, p, w);`));
  addOps(mod.ops, luOps(k));
  return name;
}
