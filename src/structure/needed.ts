// Which steps the state derivatives need: walking the plan backwards from the
// derivatives, a step is needed when it computes something needed, and then
// so is everything it reads. The rest (positions of frames nobody integrates,
// velocities only reported) goes to a separate outputs pass, computed only
// when signals are sampled.
import { symsOf } from '../expr/index.ts';
import { type Assign, type SolvePlan, type Step, columnExprs } from './plan-types.ts';

// (plan) => steps for derivatives(), steps for outputs(), both in solve order
export function splitOutputs(plan: SolvePlan): { derivatives: Step[]; outputs: Step[] } {
  const needed = new Set<number>(plan.states.map((s) => s.derivative!.id));
  const need = (exprs: readonly { id: number }[]) => {
    for (const e of exprs) for (const id of symsOf(e as never)) needed.add(id);
  };
  const derivatives: Step[] = [];
  const outputs: Step[] = [];
  for (let k = plan.steps.length - 1; k >= 0; k--) {
    const step = plan.steps[k];
    // assignments backwards: needed ones make what they read needed
    const split = (list: readonly Assign[]) => {
      const keep: Assign[] = [], rest: Assign[] = [];
      for (let i = list.length - 1; i >= 0; i--) {
        const a = list[i];
        if (needed.has(a.target.id)) {
          keep.push(a);
          need([a.expr]);
        } else rest.push(a);
      }
      if (rest.length) outputs.push({ kind: 'assign', assigns: rest.reverse() });
      return keep.reverse();
    };
    if (step.kind === 'assign') {
      const keep = split(step.assigns);
      if (keep.length) derivatives.push({ kind: 'assign', assigns: keep });
      continue;
    }
    const targets = [...step.z, ...step.y.map((a) => a.target)];
    if (!targets.some((t) => needed.has(t.id))) {
      outputs.push(step);
      continue;
    }
    if (step.kind === 'linear' && !step.columns) {
      // after the solve, y comes from the causal sequence: keep only the y's something needs
      derivatives.push({ ...step, y: split(step.y) });
      for (const v of step.z) needed.add(v.id);
      need([...step.prelude.map((a) => a.expr), ...step.H, ...step.c]);
      continue;
    }
    derivatives.push(step);
    for (const t of targets) needed.add(t.id);
    // Newton and H by columns evaluate the whole sequence for the residuals
    need(step.kind === 'linear'
      ? [...step.y.map((a) => a.expr), ...columnExprs(step.columns!), ...step.prelude.map((a) => a.expr)]
      : [...step.y.map((a) => a.expr), ...step.residuals, ...step.jacobianPrelude.map((a) => a.expr), ...step.jacobian]);
  }
  return { derivatives: derivatives.reverse(), outputs: outputs.reverse() };
}
