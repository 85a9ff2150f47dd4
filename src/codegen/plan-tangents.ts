// Tangents of a whole solve plan, kinematic loops included: transforms the
// plan's steps into one straight-line list of assignments computing the
// tangents of every unknown in D directions (tangent.ts does the assignments).
//
// Method: the whole compiled evaluation is differentiated in forward mode,
// each torn block (a loop's Newton block on positions, its linear blocks on
// velocities and accelerations) replaced by its implicit tangent at
// convergence. A block solves h(s, z) = 0 for its tearing variables z given
// everything s computed before it (the tearing paper, Elmqvist & Otter 1994,
// eq. 4: y = g~(z) from the non-residue equations, then the residues h); at
// the solution, by the implicit function theorem,
//   dh/dz dz = -(dh/ds ds),   dz = -J^-1 r',
// where r' is the tangent of the residues with z held (dz = 0) and J the
// block's own dh/dz: the Newton block's Jacobian (dH/dz = dh/dy dg~/dz +
// dh/dz, the paper's eq. 6, as the plan keeps it for its iteration), or H
// of a linear block H z = c, whose residue is H z - c, so that
//   r' = H' z - c'   and   H dz = c' - H' z,
// the derivative of the solve written as X' = -A^-1 (A' X - b'). Then the
// block's y follow with dz seeded. Implicit differentiation rather than
// differentiating Newton's iterations: the tangent is exact at the
// converged point whatever the iteration count, and needs no iteration.
//
// What stays at run time: the values of z (the compiled model's own solve at
// the point, read from its workspace: its Newton warm start keeps the
// assembly branch) and J^-1, a k x k numeric inverse per block (J's entries
// are computed by a second generated function, `primal` below, and inverted
// by torn-point.ts). Both enter the tangent code as extra inputs (each z
// copied from its input, z = z~, so that z keeps its own slot: a state's
// derivative can be a tearing variable), so that code stays straight-line
// and its zeros fold as in a tree.
//
// Glossary: D directions; s the symbols before a block; z its tearing
// variables (k of them); r' the residues' tangents with z held; J dh/dz.
import { type Expr, type Sym, ZERO, add, mul } from '../expr/index.ts';
import { Variable } from '../model/index.ts';
import { type Assign, type SolvePlan, type Step, Temp } from '../structure/plan-types.ts';
import { tangents } from './tangent.ts';

/** a torn block: its z, its dh/dz as expressions and the inputs that receive its numeric inverse */
export interface TornBlock {
  readonly block: number;
  readonly z: readonly Variable[];
  /** dh/dz (Newton) or H (linear), k x k row-major, expressions of the primal code */
  readonly J: readonly Expr[];
  /** (J^-1)_ij at i k + j: extra inputs of the tangent code */
  readonly inverse: readonly Variable[];
}

export interface PlanTangents {
  /** the tangent code: the plan's assignments, each followed by its tangents; z and J^-1 are inputs */
  readonly assigns: readonly Assign[];
  tangent(id: number): readonly Expr[] | undefined;
  /** the torn blocks in order (none: a straight-line plan) */
  readonly blocks: readonly TornBlock[];
  /** every primal assignment with the blocks' z given: what computes the J of each block */
  readonly primal: readonly Assign[];
  /** the blocks' z~ (the values of z) then their inverses' entries: the extra inputs both codes take, in this order */
  readonly extra: readonly Variable[];
}

// (plan, steps, seeds: symbol id -> its tangents, D) => the tangent code of the steps; or why there is none
export function planTangents(plan: SolvePlan, steps: readonly Step[], seeds: ReadonlyMap<number, readonly Expr[]>, D: number): PlanTangents | string {
  const symbols = new Map<number, Sym>();
  for (const v of [...plan.states, ...plan.inputs, ...plan.parameters, ...plan.unknowns]) symbols.set(v.id, v);
  const symbol = (id: number) => symbols.get(id)!;
  const known = (list: readonly Assign[]) => {
    for (const a of list) symbols.set(a.target.id, a.target);
    return list;
  };
  let map: ReadonlyMap<number, readonly Expr[]> = seeds;
  const out: Assign[] = [],
    primal: Assign[] = [],
    blocks: TornBlock[] = [],
    given: Variable[] = [];
  for (const s of steps) {
    if (s.kind === 'assign') {
      const t = tangents(known(s.assigns), map, D, symbol);
      append(out, t.assigns);
      append(primal, s.assigns);
      map = t.map;
      continue;
    }
    if (s.kind === 'iterate') return `block ${s.block} is solved by a relaxing iteration, which has no implicit tangent here`;
    if (s.kind === 'linear' && s.columns)
      return `block ${s.block} (${s.z.map((v) => v.name).join(', ')}) is formed by columns at run time (too large to form symbolically)`;
    const k = s.z.length;
    // z = z~, its value given
    const zGiven = s.z.map((z) => new Variable(undefined, `${z.name}~`, 'input'));
    append(given, zGiven);
    const copies = s.z.map((z, i) => ({ target: z, expr: zGiven[i].e }));
    append(out, copies);
    append(primal, copies);
    // the residues with z held: r' in every direction
    const residues =
      s.kind === 'newton'
        ? s.residuals
        : s.H.length === k * k
          ? rows(k, (i) => add(...s.z.map((z, j) => mul(s.H[i * k + j], z.e)), mul(-1, s.c[i])))
          : undefined;
    if (!residues) return `block ${s.block} has no symbolic H`;
    const r = residues.map((e, i) => ({ target: new Temp(`h${s.block}[${i}]`), expr: e }));
    const before = known(s.kind === 'newton' ? s.y : s.prelude);
    const held = tangents([...before, ...known(r)], map, D, symbol);
    append(out, held.assigns);
    append(primal, before);
    if (s.kind === 'newton') append(primal, known(s.jacobianPrelude));
    // dz = -J^-1 r', J^-1 given at run time
    const inverse = rows(
      k * k,
      (ij) => new Variable(undefined, `inv(${s.kind === 'newton' ? 'dh/dz' : 'H'} of block ${s.block})[${(ij / k) | 0}][${ij % k}]`, 'input'),
    );
    const zSeeds = new Map(s.kind === 'newton' ? map : held.map);
    s.z.forEach((z, i) => {
      const dz = rows(D, (d) => add(...s.z.map((_, j) => mul(-1, inverse[i * k + j].e, held.tangent(r[j].target.id)?.[d] ?? ZERO))));
      if (dz.every((e) => e.op === 'const' && e.value === 0)) return;
      zSeeds.set(
        z.id,
        dz.map((e, d) => bind(out, e, `${z.name}'${d}`)),
      );
    });
    // then y with dz; a Newton block's y were computed (and their tangents with z held) above
    const after = tangents(known(s.y), zSeeds, D, symbol);
    append(out, s.kind === 'newton' ? after.assigns.filter((a) => !s.y.includes(a)) : after.assigns);
    if (s.kind === 'linear') append(primal, s.y);
    map = after.map;
    blocks.push({ block: s.block, z: s.z, J: s.kind === 'newton' ? s.jacobian : s.H, inverse });
  }
  return { assigns: out, tangent: (id) => map.get(id), blocks, primal, extra: [...given, ...blocks.flatMap((b) => b.inverse)] };
}

const rows = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** e itself when it is a number or one symbol, else a temporary holding it */
function bind(out: Assign[], e: Expr, name: string): Expr {
  if (e.op === 'const' || e.op === 'sym') return e;
  const t = new Temp(name);
  out.push({ target: t, expr: e });
  return t.e;
}

/** list's items pushed onto out one by one: a spread of a large tree's tangents (10^5 assignments) overflows the call stack */
function append<T>(out: T[], list: readonly T[]): void {
  for (const x of list) out.push(x);
}
