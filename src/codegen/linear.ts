// The torn form's linear loops (tearing paper: H z = c) as generated code:
// H and c formed symbolically and solved at run time (Cholesky when H is
// symmetric, else LU; branch-induced sparsity kept), solved symbolically by
// Cramer's rule, or formed at run time by columns. Moved out of generate.ts,
// which calls linear() and columns() for each linear step.
import { isConst } from '../expr/index.ts';
import type { Variable } from '../model/index.ts';
import type { Columns, LinearStep } from '../structure/plan-types.ts';
import type { Scope } from './emitter.ts';
import type { Module } from './generate.ts';
import { type OpCounts, addOps } from './ops.ts';
import { singularBelow } from './runtime.ts';
import { densePattern, unrolledCholesky } from './sparse-cholesky.ts';
import type { SparseCholesky } from '../structure/sparse-pattern.ts';
import { formOf } from '../structure/solve-form.ts';

const ARGS = 't, x, u, p, w';

/**
 * How a Cholesky solve knows H symmetric: its triangles are the same
 * expressions, or evaluate alike (symmetry.ts: one triangle formed), or H is
 * checked at run time (nearSymmetric)
 */
type Symmetry = 'structural' | 'byValue' | 'numeric';

/** an Int32Array literal of the module */
const ints = (a: readonly number[]) => `Int32Array.of(${a.join(', ')})`;

function zWrites(mod: Module, z: readonly Variable[], from: string): string[] {
  return z.map((v, i) => `w[${mod.slots.slot(v)}] = ${from}[${i}];`);
}

// tearing paper: H z = c, solved numerically (Cholesky when H is structurally symmetric, else LU)
export function linear(mod: Module, s: LinearStep): string[] {
  const k = s.z.length,
    H = `H${s.block}`,
    c = `c${s.block}`;
  const symbolic = s.cramer;
  mod.arrays([
    [H, k * k],
    [c, k],
  ]);
  if (symbolic) {
    const prelude = mod.assigns(s.prelude, 'g');
    // Carpanzano & Formenti: z by Cramer's rule, subdeterminants shared, no run-time factorisation;
    // a determinant small against the rows' norms (Hadamard's bound) leaves the verdict to LU
    const z = s.z.map((v, i) => ({ target: v, expr: symbolic.z[i] }));
    const minors = mod.assigns(symbolic.assigns, 'm');
    const regular = mod.function('regular', (sc) => sc.line(`return ${sc.prepare([symbolic.hadamard]).code(symbolic.hadamard)} > ${singularBelow(k)};`));
    const byLu = mod.uncounted(() =>
      mod.function('pivoted', (sc) =>
        [
          ...mod.fillArrays([
            [H, s.H],
            [c, s.c],
          ]),
          ...luLines(mod, s, H, c),
        ].forEach((l) => sc.line(l)),
      ),
    );
    return [
      ...prelude,
      ...minors,
      mod.line('if (', regular, ') {'),
      ...mod.assigns(z, 'z').map((l) => `  ${l}`),
      mod.line('} else ', byLu, ';'),
      ...mod.assigns(s.y),
    ];
  }
  // the planner's choice (solve-form.ts): branch-induced sparsity, whose structural zeros of H are never
  // written (they stay 0) nor read; for H symmetric by value one triangle for Cholesky, both (with the
  // rest of the prelude) only for LU
  const { sparse, triangle: tri } = formOf(s);
  const entries = sparse ? s.H.map((e) => (isConst(e, 0) ? undefined : e)) : s.H;
  const prelude = mod.assigns(tri ? tri.first : s.prelude, 'g');
  const fill = [
    ...prelude,
    ...mod.fillArrays([
      [H, tri ? tri.H : entries],
      [c, s.c],
    ]),
  ];
  const refill = tri
    ? mod.uncounted(() => [
        ...prelude,
        ...mod.assigns(tri.rest, 'g'),
        ...mod.fillArrays([
          [H, entries],
          [c, s.c],
        ]),
      ])
    : fill;
  const symmetry = s.symmetric ? 'structural' : tri ? 'byValue' : 'numeric';
  const solve = mod.function('solve', (sc) => {
    for (const f of fill) sc.line(f);
    if (sparse) {
      sparseCholeskyOrLu(mod, sc, s, sparse, symmetry, refill, luLines(mod, s, H, c, false));
      for (const l of zWrites(mod, s.z, c)) sc.line(l);
      return;
    }
    if (s.solver === 'division') {
      sc.line(`if (!(Math.abs(${H}[0]) > 0)) fail('singular', ${s.block}, t, ${c}[0]);`);
      sc.line(`w[${mod.slots.slot(s.z[0])}] = ${c}[0] / ${H}[0];`);
      return;
    }
    if (s.solver === 'cholesky') {
      const unrolled = unrolledCholesky(`cholesky${s.block}`, k, densePattern(k));
      if (unrolled) (mod.parts.push(unrolled, `const D${s.block} = doubles(${k});`), mod.uses('choleskyTiny', 'doubles'));
      const factor = unrolled && `cholesky${s.block}(${H}, ${c}, D${s.block})`;
      choleskyOrLu(mod, sc, k, H, c, symmetry, refill, `fail('singular', ${s.block}, t, 0)`, luLines(mod, s, H, c, false), factor);
      for (const l of zWrites(mod, s.z, c)) sc.line(l);
    } else {
      for (const l of luLines(mod, s, H, c)) sc.line(l);
    }
  });
  addOps(mod.ops, formOf(s).solveOps);
  return [`${solve}(${ARGS});`, ...mod.assigns(s.y)];
}

/**
 * choleskyOrLu on the pattern of a sparse H (sparse-cholesky.ts): the
 * positions elimination fills in are zeroed, the symmetry test and the
 * factorisation read the pattern only; the LU fallback zeroes all of H
 * (its last run left its factors in the structural zeros) and fills it again.
 */
function sparseCholeskyOrLu(
  mod: Module,
  sc: Scope,
  s: LinearStep,
  p: SparseCholesky,
  symmetry: Symmetry,
  fill: readonly string[],
  lu: readonly string[],
): void {
  const k = s.z.length,
    b = s.block,
    H = `H${b}`,
    c = `c${b}`,
    [O, S, R, D, F] = ['O', 'S', 'R', 'D', 'F'].map((n) => `${n}${b}`);
  mod.uses('doubles');
  mod.parts.push(
    `const ${O} = ${ints(p.order)}, ${S} = ${ints(p.start)}, ${R} = ${ints(p.rows)}, ${D} = doubles(${k})${p.fill.length ? `, ${F} = ${ints(p.fill)}` : ''};`,
  );
  if (p.fill.length) sc.line(`for (let i = 0; i < ${p.fill.length}; i++) ${H}[${F}[i]] = 0;`);
  const unrolled = unrolledCholesky(`cholesky${b}`, k, p);
  if (unrolled) mod.parts.push(unrolled);
  mod.uses(unrolled ? 'choleskyTiny' : 'sparseCholeskySolve');
  const factor = unrolled ? `cholesky${b}(${H}, ${c}, ${D})` : `sparseCholeskySolve(${k}, ${H}, ${c}, ${O}, ${S}, ${R}, ${D})`;
  const fail = `fail('singular', ${b}, t, 0)`;
  if (symmetry === 'structural') {
    sc.line(`const definite = ${factor};`);
    sc.line(`if (definite < 0) ${fail};`);
    sc.line('if (definite === 0) {');
  } else {
    if (symmetry === 'numeric') mod.uses('sparseNearSymmetric');
    sc.line(`const definite = ${symmetry === 'numeric' ? `sparseNearSymmetric(${k}, ${H}, ${O}, ${S}, ${R}) ? ${factor} : 0` : factor};`);
    sc.line('if (definite <= 0) {');
  }
  sc.line(`  ${H}.fill(0);`);
  fill.forEach((l) => sc.line(`  ${l}`));
  if (symmetry !== 'structural') mod.uses('isSymmetric');
  if (symmetry !== 'structural') sc.line(`  if (definite < 0 && isSymmetric(${k}, ${H})) ${fail};`);
  lu.forEach((l) => sc.line(`  ${l}`));
  sc.line('}');
}

/**
 * Cholesky when H is symmetric positive definite (a mass matrix), else LU on
 * H formed again. A structurally symmetric H takes Cholesky's verdict
 * "singular" as it stands. A numerically symmetric one (nearSymmetric, on H
 * scaled to a unit diagonal; no test for one symmetric by value) keeps it only when H is also symmetric entry by
 * entry (isSymmetric): a pivot in Cholesky's grey zone, within 1e-11 of its
 * diagonal, is either formation noise (two massless links between ball
 * joints: symmetric entries) or a regular but ill-conditioned H (a chain with
 * one 1e12 kg link: its entries carry noise, and LU's equilibration solves it).
 */
function choleskyOrLu(
  mod: Module,
  sc: Scope,
  k: number,
  H: string,
  c: string,
  symmetry: Symmetry,
  fill: readonly string[],
  fail: string,
  lu: readonly string[],
  factor = sc.solve(k, H, c),
): void {
  if (symmetry === 'numeric') mod.uses('nearSymmetric');
  if (symmetry !== 'structural') mod.uses('isSymmetric');
  if (symmetry === 'structural') {
    sc.line(`const definite = ${factor};`);
    sc.line(`if (definite < 0) ${fail};`);
    sc.line(`if (definite === 0) {`);
  } else {
    sc.line(`const definite = ${symmetry === 'numeric' ? `nearSymmetric(${k}, ${H}) ? ${factor} : 0` : factor};`);
    sc.line(`if (definite <= 0) {`);
  }
  fill.forEach((l) => sc.line(`  ${l}`));
  if (symmetry !== 'structural') sc.line(`  if (definite < 0 && isSymmetric(${k}, ${H})) ${fail};`);
  lu.forEach((l) => sc.line(`  ${l}`));
  sc.line('}');
}

/** LU on the filled H and c, singular an error; then z is written */
function luLines(mod: Module, s: LinearStep, H: string, c: string, write = true): string[] {
  mod.uses('luSolve');
  return [`if (!(luSolve(${s.z.length}, ${H}, ${c}, true) > 0)) fail('singular', ${s.block}, t, 0);`, ...(write ? zWrites(mod, s.z, c) : [])];
}

/**
 * H z = c formed at run time by columns (Walker and Orin's method 1): the
 * causal sequence and the residues at z = 0 give c = -r(0); the derivative of
 * the sequence and the residues along dz = e_j (its coefficients computed once,
 * in the prelude) gives column j. O(k) code for the O(k^2) work that a
 * symbolic H spells out entry by entry: the two pieces as functions, the
 * columns formed by the run-time columnsForm (runtime/columns.ts), solved as
 * linear() solves a numerically symmetric H.
 */
export function columns(mod: Module, s: LinearStep, cols: Columns): string[] {
  const k = s.z.length,
    b = s.block;
  const [H, c, r, d, loop] = ['H', 'c', 'r', 'dh', 'columnsLoop'].map((n) => `${n}${b}`);
  const zSlots = s.z.map((v) => mod.slots.slot(v)),
    dzSlots = cols.dz.map((v) => mod.slots.slot(v));
  mod.arrays([
    [H, k * k],
    [c, k],
    [r, k],
    [d, k],
  ]);
  const prelude = mod.assigns(s.prelude, 'g');
  const before = { ...mod.ops };
  const y = mod.assigns(s.y, 'y');
  const yOps = since(before, mod.ops);
  const residual = mod.function('residual', (sc) => [...y, ...mod.fillArrays([[r, cols.residuals]])].forEach((l) => sc.line(l)));
  const beforeD = { ...mod.ops };
  const dy = [...mod.assigns(cols.dy, 'e'), ...mod.fillArrays([[d, cols.dh]])];
  const dOps = since(beforeD, mod.ops);
  const along = mod.function('direction', (sc) => dy.forEach((l) => sc.line(l)));
  mod.uses('columnsBlock', 'columnsForm', 'luSolve');
  mod.parts.push(`const ${loop} = columnsBlock(${k}, ${ints(zSlots)}, ${ints(dzSlots)}, ${H}, ${c}, ${r}, ${d}, ${residual}, ${along});`);
  const fail = `fail('singular', ${b}, t, 0)`;
  const fill = [`columnsForm(${loop}, t, x, u, p, w);`];
  const solve = mod.function('columns', (sc) => {
    fill.forEach((l) => sc.line(l));
    if (s.solver === 'cholesky') choleskyOrLu(mod, sc, k, H, c, 'numeric', fill, fail, [`if (!(luSolve(${k}, ${H}, ${c}, true) > 0)) ${fail};`]);
    else sc.line(`if (!(luSolve(${k}, ${H}, ${c}, true) > 0)) ${fail};`);
    zSlots.forEach((z, j) => sc.line(`w[${z}] = ${c}[${j}];`));
  });
  // counted once each as emitted: the sequence runs twice (at z = 0, then at the solution), the direction k times
  addOps(mod.ops, yOps);
  addOps(mod.ops, scaleOps(dOps, k - 1));
  addOps(mod.ops, formOf(s).solveOps);
  return [...prelude, `${solve}(${ARGS});`, ...y];
}

const since = (from: OpCounts, to: OpCounts): OpCounts => ({ mul: to.mul - from.mul, add: to.add - from.add, div: to.div - from.div, fn: to.fn - from.fn });
const scaleOps = (o: OpCounts, f: number): OpCounts => ({ mul: o.mul * f, add: o.add * f, div: o.div * f, fn: o.fn * f });
