// Constant and copy propagation over the solve plan: an unknown that an
// explicit step sets to a constant, to another symbol or to its negation
// (R[1][3] = 0 of the first joint below a fixed world, a = relax(a) of a
// joint on the ground) is substituted into every later expression, which the
// simplifying constructors then shrink (x*0, 0 + y). The assignments stay,
// so the signals keep their values.
import { type Expr, substitute, symsOf } from '../expr/index.ts';
import type { Assign, Step } from './plan-types.ts';

/** free to repeat: constants, symbols, negated symbols (k*x would cost a multiplication per use) */
const trivial = (e: Expr): boolean =>
  e.op === 'const' || e.op === 'sym' || (e.op === 'mul' && e.args.length === 2 && e.args[0].op === 'const' && e.args[0].value === -1 && e.args[1].op === 'sym');

// (steps in solve order) => the same steps with trivial values substituted forward
export function propagateTrivial(steps: readonly Step[]): Step[] {
  const known = new Map<number, Expr>();
  return steps.map((s) => propagateStep(s, known));
}

/** does e hold a symbol of `known`? */
function holdsAny(e: Expr, known: Map<number, Expr>): boolean {
  for (const id of symsOf(e)) if (known.has(id)) return true;
  return false;
}

function propagateStep(s: Step, known: Map<number, Expr>): Step {
  // most expressions hold nothing known: leave those alone without rebuilding them
  const sub = (e: Expr) => (known.size && holdsAny(e, known) ? substitute(e, known) : e);
  const assigns = (list: readonly Assign[], record: boolean) =>
    list.map((a) => {
      const expr = sub(a.expr);
      // a checked pivot stays a value of its own: its check reads it
      if (record && trivial(expr) && !a.pivot) known.set(a.target.id, expr);
      // unchanged (most): the assignment itself, not a copy per assignment
      return expr === a.expr ? a : { ...a, expr };
    });
  switch (s.kind) {
    case 'assign': {
      // the fallback sees what is known before the loop (not the loop's own values, which it
      // recomputes), and records nothing for the steps after it
      const checked = s.checked && { ...s.checked, fallback: propagateStep(s.checked.fallback, new Map(known)) };
      return { ...s, assigns: assigns(s.assigns, true), ...(checked && { checked }) };
    }
    case 'linear':
      return {
        ...s,
        prelude: assigns(s.prelude, true),
        H: s.H.map(sub),
        c: s.c.map(sub),
        y: assigns(s.y, true),
        // the residuals are evaluated at z = 0 and the directions at every e_j: record nothing from them
        ...(s.columns && { columns: { ...s.columns, residuals: s.columns.residuals.map(sub), dy: assigns(s.columns.dy, false), dh: s.columns.dh.map(sub) } }),
      };
    case 'iterate':
      // the prelude runs once before the sweeps; the updates read z, which changes every sweep
      return { ...s, prelude: assigns(s.prelude, true), rows: s.rows.map((r) => ({ b: sub(r.b), terms: r.terms.map(([j, a]) => [j, sub(a)] as const) })) };
    case 'newton':
      // inside the iteration y depends on z: substitute into it, but record nothing from it
      return {
        ...s,
        y: assigns(s.y, false),
        residuals: s.residuals.map(sub),
        jacobianPrelude: assigns(s.jacobianPrelude, false),
        jacobian: s.jacobian.map(sub),
      };
  }
}
