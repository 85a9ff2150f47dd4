// J' qd of a frame, the velocity-product part of its acceleration
//   [a; alpha] = J qdd + J' qd,
// as generated code of (q, qd): the second tangents of the position-level
// code along qd. With q(t) moving at qd and qdd = 0, r'' = d2r/dq2[qd, qd]
// is the linear part; the angular part is vee(R'' R^T): w = vee(R' R^T),
// so alpha = vee(R'' R^T + R' R'^T), and R' R'^T is symmetric (no vee
// part). tangent.ts is applied twice: the first pass gives r', R' along qd
// (qd a symbol: the model's own speed states), the second differentiates
// that code along qd again; qd itself does not move (qdd = 0).
//
// Glossary: plan straight-line (a tree); pairs the state coordinates q with
// der(q) = qd, by index in x; outputs R (9), r'' (3), R'' (9).
import { type Expr, type Sym, ZERO, add, mul, num } from '../expr/index.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { type DerivedCode, derivedCode } from '../codegen/derived.ts';
import { tangents } from '../codegen/tangent.ts';
import { type Assign, type SolvePlan, Temp } from '../structure/plan-types.ts';

// (compiled model, its straight-line plan, frame, coordinates) => code computing R, r'' and R'' at (q, qd)
export function frameBiasCode(compiled: CompiledModel, plan: SolvePlan, frame: string, pairs: readonly { q: number; qd: number }[]): DerivedCode {
  const list = plan.steps.flatMap((s) => (s.kind === 'assign' ? s.assigns : []));
  const symbols = new Map<number, Sym>([...plan.states, ...plan.inputs, ...plan.parameters, ...plan.unknowns].map((v) => [v.id, v]));
  const known = (as: readonly Assign[]) => {
    for (const a of as) symbols.set(a.target.id, a.target);
    return as;
  };
  const symbol = (id: number) => symbols.get(id)!;
  // a signal is sign * (state, input or unknown) + offset (compiled-data.ts)
  const value = (name: string): Expr => {
    const s = compiled.signalSource(name);
    const v =
      s.from === 'x'
        ? plan.states[s.index]
        : s.from === 'u'
          ? plan.inputs[s.index]
          : s.from === 'w' && s.index < compiled.plan.unknowns.length
            ? compiled.plan.unknowns[s.index]
            : undefined;
    return v ? add(mul(s.sign, v.e), s.offset) : num(s.from === 'value' ? s.offset : 0);
  };
  const names = [...[1, 2, 3].map((k) => `${frame}.r[${k}]`), ...[1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `${frame}.R[${a}][${b}]`))];
  const seeds = new Map(pairs.map((c) => [plan.states[c.q].id, [plan.states[c.qd].e]]));
  const values = known(names.map((name) => ({ target: new Temp(name), expr: value(name) })));
  const first = tangents([...known(list), ...values], seeds, 1, symbol);
  known(first.assigns);
  const speeds = known(values.map((v) => ({ target: new Temp(`(${v.target.name})'`), expr: first.tangent(v.target.id)?.[0] ?? ZERO })));
  const second = tangents([...first.assigns, ...speeds], seeds, 1, symbol);
  const outputs = [...values.slice(3).map((v) => v.target.e), ...speeds.map((v) => second.tangent(v.target.id)?.[0] ?? ZERO)];
  return derivedCode(plan, [], second.assigns, outputs, `${compiled.report.model}.${frame}.bias`, compiled.fail);
}
