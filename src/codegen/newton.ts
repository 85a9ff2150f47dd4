// Newton's method on a torn nonlinear loop (tearing paper: Newton on the
// tearing variables), emitted as one function of the generated module: damped
// and non-monotone, restarted with full steps when it stalls, and for a
// kinematic loop's position level the dead-point and assembly-branch tests.
import { type NewtonStep, Temp } from '../structure/plan-types.ts';
import type { Module } from './generate.ts';
import { addOps, luOps } from './ops.ts';
import { type SubstitutionOptions, type SubstitutionSlots, substitutionLines } from './substitution.ts';

/**
 * A loop closure whose constraint Jacobian at the solved position has an
 * unscaled rcond below 1e-5: the linkage is at a dead point or a change point
 * (for a four-bar, within ~1e-13 rad of it; rcond grows as the square root of
 * the distance), where the accelerations of the joints the loop determines
 * grow without bound and lose digits as eps / rcond^2 (a four-bar's crank
 * started 3e-15 rad from its change point has rcond 1.7e-6 and jumps from 4
 * to 715 rad/s in one 1 ms step). Integration there is meaningless: an error.
 */
const DEAD_POINT_RCOND = 1e-5;
/**
 * Newton's solution off its first step (the linear prediction) by more than
 * this multiple of it: another branch. Measured on the planar four-bar: along
 * a run through its change point (step 1e-3) the largest ratio is 0.63, the
 * crank at 30 rad/s with steps of 0.005 to 0.03 (0.15 to 0.9 rad a step)
 * reaches 0.12 to 0.71, and at 0.05 (1.5 rad a step) Newton lands 10 rad
 * away where 2.3 were predicted (ratio 4.4).
 */
const BRANCH_JUMP = 2;

/** accepted Newton iterates whose largest merit a new one must stay below (newton()) */
const MERIT_MEMORY = 5;

/**
 * The converged test of a kinematic loop's position level, with two checks:
 * the constraint Jacobian at the solution must not be singular (a dead point,
 * DEAD_POINT_RCOND), and, as time advances, Newton must stay on its assembly
 * branch: warm-started from the last solution, its first step is the linear
 * prediction of the change; a solution that differs from that prediction by
 * more than BRANCH_JUMP of it (plus 1e-6) means the step was too large for
 * the linearisation, which is how Newton lands on another assembly of the loop.
 */
function closed(mod: Module, s: NewtonStep, jacobian: readonly string[]): string[] {
  const k = s.z.length, J = `J${s.block}`, z0 = `z0${s.block}`, f = `firstStep${s.block}`;
  const since = mod.slots.slot(new Temp(`b${s.block}.solvedAt`));
  const zSlots = s.z.map((v) => mod.slots.slot(v));
  return [
    '  if (norm <= 1e-12 || (small && norm <= 1e-6)) {',
    ...jacobian.map((l) => `    ${l}`),
    `    const rcond = unscaledRcond(${k}, ${J});`,
    `    if (!(rcond >= ${DEAD_POINT_RCOND})) fail('deadpoint', ${s.block}, t, rcond);`,
    '    let off = 0, predicted = 0, size = 0;',
    ...zSlots.map((z, i) => `    off = Math.max(off, Math.abs(w[${z}] - ${z0}[${i}] - ${f}[${i}])); predicted = Math.max(predicted, Math.abs(${f}[${i}])); size = Math.max(size, Math.abs(w[${z}]));`),
    `    if (t > w[${since}] && off > ${BRANCH_JUMP} * predicted + 1e-6 * (1 + size)) fail('branch', ${s.block}, t, off);`,
    `    w[${since}] = t;`,
    '    return;',
    '  }',
  ];
}

/**
 * A kinematic loop that none of the attempts closes: the unscaled rcond of
 * its constraint Jacobian at the last closed position (the entry guess). A
 * small one means the motion ran into a dead point of the chosen state
 * joints (an RSSR crank at its extreme angle), past which the loop does not
 * close at all, and the error says so (compiled.ts).
 */
function stuck(zSlots: readonly number[], entry: string, evaluate: readonly string[], k: number, J: string): string[] {
  return [
    `    ${zSlots.map((z, i) => `w[${z}] = ${entry}[${i}];`).join(' ')}`,
    ...evaluate.map((l) => `    ${l}`),
    `    const rcond = unscaledRcond(${k}, ${J});`,
  ];
}

/**
 * The third attempt, when damped Newton and full steps both fail from the
 * same guess: Levenberg-Marquardt (Marquardt 1963, with Nielsen's update of
 * mu), the step (J^T J + mu diag(J^T J)) dz = J^T r. Near a singular Jacobian
 * along the way (a universal joint passing its gimbal) it turns towards
 * gradient steps instead of jumping, and closes loops from guesses where
 * Newton does not (fuzz seed 1286: an RRPUU loop assembled from random
 * angles, which the oracle's minimum-norm Newton closes). A trial that does
 * not lower the sum of squares is taken back and mu grows; one that does is
 * kept and mu shrinks.
 */
function levenbergMarquardtTrial(zSlots: readonly number[], dz: string): string[] {
  return [
    '  if (phase === 2) {',
    '    if (!retry && !(merit < last)) {',
    ...zSlots.map((z, i) => `      w[${z}] += ${dz}[${i}];`),
    '      mu *= 4; retry = true;',
    '      if (mu <= 1e12) { it--; continue; }',
    '    } else {',
    '      if (!retry) mu = Math.max(mu / 3, 1e-15);',
    '      retry = false; last = merit;',
    '    }',
    '  }',
  ];
}

/** the Levenberg-Marquardt step into r (from J and r), or LU's Newton step in the other phases */
function levenbergMarquardtStep(k: number, J: string, r: string, A: string, g: string): string[] {
  return [
    '  if (phase === 2) {',
    `    for (let a = 0; a < ${k}; a++) {`,
    `      let ga = 0;`,
    `      for (let i = 0; i < ${k}; i++) ga += ${J}[i * ${k} + a] * ${r}[i];`,
    `      ${g}[a] = ga;`,
    `      for (let b = 0; b <= a; b++) {`,
    `        let s = 0;`,
    `        for (let i = 0; i < ${k}; i++) s += ${J}[i * ${k} + a] * ${J}[i * ${k} + b];`,
    `        ${A}[a * ${k} + b] = s; ${A}[b * ${k} + a] = s;`,
    '      }',
    '    }',
    `    for (let a = 0; a < ${k}; a++) ${A}[a * ${k} + a] += mu * ${A}[a * ${k} + a] + 1e-300;`,
    `    if (!(luSolve(${k}, ${A}, ${g}) > 0)) { mu *= 4; retry = true; it--; continue; }`,
    `    for (let a = 0; a < ${k}; a++) ${r}[a] = ${g}[a];`,
    '  }',
  ];
}

// tearing paper: Newton on the tearing variables, warm-started from the last solution kept in w
// with `substitution` (not for a kinematic loop's closure): successive substitution first (substitution.ts)
export function newton(mod: Module, s: NewtonStep, substitution?: SubstitutionOptions, register?: (slots: SubstitutionSlots) => void): string {
  const k = s.z.length, r = `r${s.block}`, J = `J${s.block}`, dz = `dz${s.block}`;
  mod.parts.push(`const ${r} = doubles(${k}), ${J} = doubles(${k * k}), ${dz} = doubles(${k});`);
  const y = mod.assigns(s.y, 'y');
  const residual = mod.fillArrays([[r, s.residuals]]);
  const jacobian = [...mod.assigns(s.jacobianPrelude, 'd'), ...mod.fillArrays([[J, s.jacobian]])];
  const zSlots = s.z.map((v) => mod.slots.slot(v));
  const z0 = `z0${s.block}`;
  // the last solution and Newton's first step from it (closed())
  if (s.closure) mod.parts.push(`const ${z0} = doubles(${k}), firstStep${s.block} = doubles(${k});`);
  // damped, non-monotone (Grippo, Lampariello and Lucidi): a step whose sum of
  // squared residuals (the merit the Newton direction descends; the max norm
  // need not fall) is not below the largest of the last MERIT_MEMORY accepted
  // is halved. A monotone test stalls far from a solution where full steps
  // converge (fuzz seed 25, a spatial loop assembled from a guess 0.8 off).
  // When the damped iteration fails, it starts again from the same guess with
  // full steps, which may cross a region where the merit rises (a gimbal of a
  // ball joint) that the damped one cannot leave.
  const memory = `merits${s.block}`, entry = `entry${s.block}`, A = `lmA${s.block}`, g = `lmG${s.block}`;
  mod.parts.push(`const ${memory} = doubles(${MERIT_MEMORY}), ${entry} = doubles(${k}), ${A} = doubles(${k * k}), ${g} = doubles(${k});`);
  const restore = zSlots.map((z, i) => `w[${z}] = ${entry}[${i}];`).join(' ');
  const substitute = substitution && !s.closure && register ? substitutionLines(mod, s, substitution, register, { y, residual, jacobian, r, J, entry }) : [];
  const body = [
    // element by element: an array literal would allocate at every call
    ...(s.closure ? [zSlots.map((z, i) => `${z0}[${i}] = w[${z}];`).join(' '), `firstStep${s.block}.fill(0);`] : []),
    zSlots.map((z, i) => `${entry}[${i}] = w[${z}];`).join(' '),
    ...substitute,
    // phase 0 damped Newton, 1 full steps, 2 Levenberg-Marquardt (levenbergMarquardt())
    `let small = false, lambda = 1, last = Infinity, accepted = 0, phase = 0, best = Infinity, mu = 1e-3, retry = false; ${memory}.fill(0);`,
    'for (let it = 0; ; it++) {',
    ...[...y, ...residual].map((l) => `  ${l}`),
    '  let norm = 0, merit = 0;',
    `  for (let i = 0; i < ${k}; i++) { norm = Math.max(norm, Math.abs(${r}[i])); merit += ${r}[i] * ${r}[i]; }`,
    '  if (phase === 0 && !(merit < last) && lambda > 1e-9 && it < 200) {',
    '    lambda *= 0.5;',
    ...zSlots.map((z, i) => `    w[${z}] += lambda * ${dz}[${i}];`),
    '    continue;',
    '  }',
    ...levenbergMarquardtTrial(zSlots, dz),
    ...(s.closure ? closed(mod, s, jacobian) : ['  if (norm <= 1e-12 || (small && norm <= 1e-6)) return;']),
    '  if (small || it >= 200 || !(norm < Infinity) || (phase === 2 && mu > 1e12)) {',
    '    best = Math.min(best, norm);',
    `    if (phase < 2) { ${restore} phase++; small = false; lambda = 1; last = Infinity; mu = 1e-3; retry = false; it = -1; continue; }`,
    // the smallest residual of the three attempts (the full steps' may have diverged), and for a
    // kinematic loop the condition of the position it starts from (stuck())
    ...(s.closure ? stuck(zSlots, entry, [...y, ...residual, ...jacobian], k, J) : []),
    `    fail('newton', ${s.block}, t, best${s.closure ? ', rcond' : ''});`,
    '  }',
    ...jacobian.map((l) => `  ${l}`),
    ...levenbergMarquardtStep(k, J, r, A, g),
    // a singular Jacobian on the way ends this phase: Levenberg-Marquardt's step exists where Newton's does not
    `  else if (!(luSolve(${k}, ${J}, ${r}) > 0)) { small = true; it--; continue; }`,
    '  let step = 0, size = 0;',
    ...zSlots.map((z, i) => `  ${dz}[${i}] = ${r}[${i}]; w[${z}] -= ${r}[${i}]; step = Math.max(step, Math.abs(${r}[${i}])); size = Math.max(size, Math.abs(w[${z}]));`),
    ...(s.closure ? [`  if (it === 0) for (let i = 0; i < ${k}; i++) firstStep${s.block}[i] = -${r}[i];`] : []),
    '  small = phase < 2 && step <= 1e-14 * (1 + size);',
    '  lambda = 1;',
    `  if (phase < 2) { ${memory}[accepted++ % ${MERIT_MEMORY}] = merit; last = 0; for (let i = 0; i < ${MERIT_MEMORY}; i++) last = Math.max(last, ${memory}[i]); }`,
    '}',
  ];
  const name = mod.function('newton', (sc) => body.forEach((l) => sc.line(l)));
  addOps(mod.ops, luOps(k));
  return name;
}
