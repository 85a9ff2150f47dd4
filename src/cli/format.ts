// Human-readable compile report for the terminal.
import type { CompileReport } from '../report.ts';
import type { IterationStats } from '../codegen/relax-iterate.ts';
import type { SubstitutionStats } from '../codegen/substitution.ts';
import type { IntegrationStats } from '../sim/steppers/index.ts';

export function formatReport(r: CompileReport): string {
  const lines = [
    `model ${r.model} (${r.mode}${r.problem === 'inverse' ? ', inverse dynamics' : ''})`,
    `  equations ${r.equations} after flattening, ${r.sortedEquations} after alias elimination (${r.aliasesEliminated} aliases)`,
    `  unknowns ${r.unknowns}, states ${r.states}`,
    `  ops per evaluation: ${r.ops.mul} mul, ${r.ops.add} add, ${r.ops.div} div, ${r.ops.fn} fn`,
    `  compiled in ${r.compileMs} ms into ${r.functions} functions${r.cache?.hit ? ` (from the compile cache, loaded in ${r.cache.loadMs} ms)` : ''}`,
  ];
  const cache = cacheLine(r.cache);
  if (cache) lines.push(cache);
  if (r.auto) {
    const cost = (e: NonNullable<CompileReport['auto']>['torn']) =>
      'cost' in e
        ? `cost ${e.cost}`
        : 'atLeast' in e
          ? `cost at least ${Math.round(e.atLeast)} (not compiled: its loops' forming and solving alone)`
          : `failed: ${e.error}`;
    lines.push(`  --mode auto chose ${r.auto.chosen}: torn ${cost(r.auto.torn)}, relaxed ${cost(r.auto.relaxed)} (mul + add + 4 (div + fn))`);
  }
  if (r.inverse) lines.push(`  inverse dynamics: q, qd, qdd of ${r.inverse.coordinates.join(', ')} given; computes ${r.inverse.forces.join(', ')}`);
  if (r.definedInputs?.length) lines.push(`  inputs defined by equations (now unknowns): ${r.definedInputs.join(', ')}`);
  if (r.kinematics?.loops.length) {
    lines.push(
      `  state joints ${r.kinematics.stateJoints.join(', ') || '(none)'}; determined by loops ${(r.kinematics.restCoordinates ?? r.kinematics.restJoints).join(', ')}`,
    );
    for (const k of r.kinematics.loops) {
      lines.push(
        `  kinematic loop cut at ${k.cut} (${k.chosenBy === 'user' ? 'marked' : 'chosen by the builder'}${k.planar ? ', planar' : ''}, ${k.constraints} constraints): tree joints ${k.joints.join(', ')}`,
      );
    }
  }
  for (const l of r.relaxedLoops) {
    const left = l.method === 'iteration' ? 'left to iterate on' : 'left to eliminate';
    lines.push(
      `  relaxed loop: ${l.size} equations -> ${l.relaxedBlocks} blocks of the relaxed BLT form (largest ${l.largest})${l.remainder ? `, ${l.remainder} equations ${left}` : ''}`,
    );
    if (l.iteration) {
      const { variables, tol, maxSweeps, omega } = l.iteration;
      lines.push(
        `    relaxing iteration: Gauss-Seidel${omega !== 1 ? ` (SOR, omega ${omega})` : ''} on ${variables} variables, tol ${tol}, at most ${maxSweeps} sweeps`,
      );
    } else if (l.method) lines.push('    no remainder: eliminated exactly (nothing to iterate on)');
    if (l.checkedPivots)
      lines.push(
        `    ${l.checkedPivots} pivots checked at run time; ${l.method === 'iteration' ? 'a failed check stops the run' : `a failed check solves the loop torn (${l.fallback})`}`,
      );
  }
  if (r.blocks.length === 0) lines.push(r.relaxedLoops.length ? '  no algebraic loop left' : '  no algebraic loops');
  r.blocks.forEach((b, i) => {
    lines.push(
      `  ${b.relaxed ? 'relaxed block' : 'loop'} ${i + 1}: ${b.size} ${b.linear ? 'linear' : 'non-linear'} equations torn to ${b.tearing} (${b.tearingFrom}; ${b.solver}${b.formedBy ? `; H by ${b.formedBy}` : ''}${b.iteration === 'substitution' ? '; successive substitution first' : ''})`,
    );
    lines.push(`    tearing variables: ${b.tearVariables.join(', ')}`);
  });
  for (const d of r.diagnostics) lines.push(`  warning: ${d}`);
  return lines.join('\n');
}

/** what the compile cache did beyond the model's files, when there is something to say: what the entry is keyed on, or why nothing was stored */
function cacheLine(c: CompileReport['cache']): string | undefined {
  if (!c) return undefined;
  if (c.stored === false) return `  compile cache: nothing stored, because ${c.reason}`;
  if (!c.reads) return undefined;
  const read = [...c.reads.files, ...c.reads.env.map((n) => `env ${n}`), ...(c.reads.argv ? ['the command line (process.argv)'] : [])].join(', ');
  return `  compile cache: ${c.hit ? 'found' : 'stored'}, keyed also on what the module read: ${read}`;
}

/** a simulation's sweeps per evaluation, one line per relaxing iteration and per substituted torn loop */
/** --stats: what the integration of a run cost */
export function integrationLine(s: IntegrationStats): string {
  const implicit = s.jacobians || s.decompositions ? `, ${s.jacobians} Jacobians, ${s.decompositions} LU decompositions` : '';
  return `integration: ${s.integrator}, ${s.steps} steps (${s.rejected} rejected), ${s.evaluations} evaluations of the derivatives${implicit}`;
}

export function iterationLines(stats: readonly IterationStats[] | undefined, substitutions: readonly SubstitutionStats[] = []): string[] {
  return [
    ...(stats ?? []).map(
      (s) =>
        `relaxing iteration of relaxed loop ${s.loop}: ${s.evaluations} evaluations, sweeps per evaluation mean ${s.meanSweeps.toFixed(2)}, max ${s.maxSweeps}`,
    ),
    ...substitutions.map(
      (s) =>
        `successive substitution of loop ${s.block}: ${s.evaluations} evaluations, sweeps per evaluation mean ${s.meanSweeps.toFixed(2)}, max ${s.maxSweeps}; Newton finished ${s.fallbacks}`,
    ),
  ];
}
