// Which steps the state derivatives (and the problem's outputs, plan.outputs) need: walking the plan backwards from the
// derivatives, a step is needed when it computes something needed, and then
// so is everything it reads. The rest (positions of frames nobody integrates,
// velocities only reported) goes to a separate outputs pass, computed only
// when signals are sampled.
import { symsOf } from '../expr/index.ts';
import { type Assign, type SolvePlan, type Step, stepExprs } from './plan-types.ts';

// (plan) => steps for derivatives(), steps for outputs(), both in solve order
export function splitOutputs(plan: SolvePlan): { derivatives: Step[]; outputs: Step[] } {
  const needed = new Set<number>([...plan.states.map((s) => s.derivative!.id), ...plan.outputs.map((v) => v.id)]);
  const need = (exprs: readonly { id: number }[]) => {
    for (const e of exprs) for (const id of symsOf(e as never)) needed.add(id);
  };
  const derivatives: Step[] = [];
  const outputs: Step[] = [];
  for (let k = plan.steps.length - 1; k >= 0; k--) {
    const step = plan.steps[k];
    // assignments backwards: needed ones make what they read needed
    const split = (list: readonly Assign[]) => {
      const keep: Assign[] = [],
        rest: Assign[] = [];
      for (let i = list.length - 1; i >= 0; i--) {
        const a = list[i];
        if (needed.has(a.target.id)) {
          keep.push(a);
          need([a.expr]);
        } else rest.push(a);
      }
      return { keep: keep.reverse(), rest: rest.reverse() };
    };
    if (step.kind === 'assign') {
      const { keep, rest } = split(step.assigns);
      const checked = step.checked;
      if (keep.length) derivatives.push({ kind: 'assign', assigns: keep, ...(checked && { checked }) });
      // the outputs part of a checked loop goes on from the derivatives part's pivots, or is all of it
      if (rest.length)
        outputs.push({ kind: 'assign', assigns: rest, ...(checked && { checked: keep.length ? { ...checked, continued: true as const } : checked }) });
      // the fallback may run in derivatives(): what it reads from before the loop is needed there
      if (checked && keep.length) need(stepExprs(checked.fallback));
      continue;
    }
    const targets = [...step.z, ...step.y.map((a) => a.target)];
    if (!targets.some((t) => needed.has(t.id))) {
      outputs.push(step);
      continue;
    }
    if (step.kind === 'linear' && !step.columns) {
      // after the solve, y comes from the causal sequence: keep only the y's something needs
      const { keep, rest } = split(step.y);
      if (rest.length) outputs.push({ kind: 'assign', assigns: rest });
      derivatives.push({ ...step, y: keep });
      for (const v of step.z) needed.add(v.id);
      need([...step.prelude.map((a) => a.expr), ...step.H, ...step.c]);
      continue;
    }
    derivatives.push(step);
    for (const t of targets) needed.add(t.id);
    // Newton and H by columns evaluate the whole sequence for the residuals
    need(stepExprs(step));
  }
  return { derivatives: derivatives.reverse(), outputs: outputs.reverse() };
}
