// The one record of how each torn linear step is solved (solve-form.ts,
// SolveForm), made by the last stage of planning: every linear step of a
// plan carries it (a relaxed loop's torn fallback too), the compile report
// says what it says, codegen prints the pattern it chose, its counts follow
// the operation rules of costs.ts, its sparse pattern covers every nonzero
// entry of H, and a structurally singular H leaves Cramer's rule for the
// run-time factorisation instead of failing the compile.
import { describe, expect, it } from 'vitest';
import { compile, loadUrdf, type Model } from '../../src/index.ts';
import { isConst, num } from '../../src/expr/index.ts';
import { Model as FlatModelBuilder } from '../../src/model/index.ts';
import { choleskyOps, refinedLuOps } from '../../src/structure/costs.ts';
import { chooseSolvers } from '../../src/structure/solve-form.ts';
import { cramerSolve } from '../../src/structure/cramer.ts';
import { StructuralError } from '../../src/errors.ts';
import type { BlockReport, LinearStep, Step } from '../../src/structure/plan-types.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import puma from '../../mechanisms/puma560.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import tree from '../../mechanisms/tree.ts';

const total = (o: { mul: number; add: number; div: number; fn: number }) => o.mul + o.add + o.div + o.fn;

/** the linear steps of a plan, a checked loop's torn fallback included */
const linearSteps = (steps: readonly Step[]): LinearStep[] =>
  steps.flatMap((s) => (s.kind === 'linear' ? [s] : s.kind === 'assign' && s.checked ? linearSteps([s.checked.fallback]) : []));

const models: [string, () => Model, 'torn' | 'relaxed'][] = [
  ['humanoid torn', () => humanoid(), 'torn'],
  ['humanoid relaxed (its fallback)', () => humanoid(), 'relaxed'],
  ['PUMA 560 torn', () => puma(), 'torn'],
  ['four-bar torn', () => fourbar(), 'torn'],
  ['tree torn', () => tree(), 'torn'],
  ['HyQ torn', () => loadUrdf('bench/robots/hyq.urdf').mechanism, 'torn'],
];

describe('the solve form of torn linear steps', () => {
  it.each(models)('%s: recorded on every step, said by the report, printed by codegen', (_, build, mode) => {
    const c = compile(build(), { mode });
    const steps = linearSteps(c.plan.steps);
    expect(steps.length).toBeGreaterThan(0);
    const source = c.source();
    for (const s of steps) {
      const form = s.form!,
        k = s.z.length;
      expect(form).toBeDefined();
      const report = [...c.plan.blocks, ...c.plan.fallbacks].find(
        (b, i) => (i < c.plan.blocks.length ? i : i - c.plan.blocks.length + (1 << 20)) === s.block,
      ) as BlockReport;
      expect(report.form).toBe(form.kind);
      expect(report.why).toBe(form.why);
      expect(report.solver).toBe(form.kind === 'sparse-cholesky' ? 'cholesky' : form.kind);
      // the run-time solve's operations, by the rules of costs.ts
      if (form.kind === 'cholesky') expect(form.solveOps).toEqual(choleskyOps(k));
      if (form.kind === 'lu') expect(form.solveOps).toEqual(refinedLuOps(k));
      if (form.kind === 'division') expect(total(form.solveOps)).toBe(1);
      expect(form.kind === 'sparse-cholesky').toBe(form.sparse !== undefined);
      if (!form.sparse) continue;
      // used only when it saves a fifth of the dense factorisation
      expect(total(form.sparse.ops)).toBeLessThan(0.8 * total(choleskyOps(k)));
      // the pattern: every entry H_ij off the diagonal that is not the constant 0 is one the factorisation updates
      const { order, start, rows } = form.sparse,
        covered = new Set<number>();
      order.forEach((j, p) => rows.slice(start[p], start[p + 1]).forEach((i) => covered.add(i * k + j).add(j * k + i)));
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (i !== j && !isConst(s.H[i * k + j], 0)) expect(covered.has(i * k + j)).toBe(true);
      // what codegen prints: the pattern's order, as the record has it
      expect(source).toContain(`const O${s.block} = Int32Array.of(${order.join(', ')})`);
    }
  });

  it('a structurally singular H: not Cramer (which cannot solve it) but the run-time LU, whose check reports it', () => {
    const m = new FlatModelBuilder('singular');
    const [a, b] = [m.variable('a'), m.variable('b')];
    // H = [[a, b], [a, b]]: det H = ab - ba is identically 0, which cramerSolve reports as a StructuralError
    const H = [a, b, a, b];
    expect(() => cramerSolve(H, [num(1), num(2)], 2, '')).toThrow(StructuralError);
    const step: LinearStep = {
      kind: 'linear',
      block: 0,
      prelude: [],
      z: [a.sym!, b.sym!] as never,
      H,
      c: [num(1), num(2)],
      symmetric: false,
      paired: false,
      y: [],
      solver: 'lu',
    };
    const report = { solver: 'lu' } as BlockReport;
    const [chosen] = chooseSolvers([step], () => report) as LinearStep[];
    expect(chosen.solver).toBe('lu');
    expect(chosen.form!.kind).toBe('lu');
    expect(report.form).toBe('lu');
  });
});
