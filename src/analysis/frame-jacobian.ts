// The geometric Jacobian of a frame: [v; w] = J qd, 6 x n, in world
// coordinates, with respect to the coordinates among the states (q with
// der(q) = qd). Columns by the implicit function theorem on the position
// equations (implicit.ts), so a kinematic loop is closed: the joints it
// determines follow the state joints.
//   linear  column i = d r / d q_i
//   angular column i = vee(dR/dq_i R^T)   (R maps frame to world coordinates,
//           so R' = [w]x R, frame.ts)
// Where the model's relaxed plan is straight-line code, the rows dr/dq and
// dR/dq come from generated tangents of it instead (linearize-generated.ts),
// made on the second call with a compiled model and frame.
import { ModelError, SimulationError, UsageError } from '../errors.ts';
import { withLocalTable } from '../expr/index.ts';
import type { Model } from '../model/index.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { type PointOptions, operatingPoint } from './linearize.ts';
import { type OperatingPoint, type Sensitivities, sensitivities, solvePoint } from './implicit.ts';
import { type Code, codeFor, generatedRows, straightPlan } from './linearize-generated.ts';
import { frameBiasCode } from './frame-bias.ts';
import type { DerivedCode } from '../codegen/derived.ts';
import type { ModelState } from '../codegen/state.ts';

/** a frame's geometric Jacobian: its linear and angular velocity in the world per coordinate speed */
export interface FrameJacobian {
  /** the model's name */
  model: string;
  /** the frame, e.g. "link7.frame_a" */
  frame: string;
  /** the state coordinates: the columns of J */
  coordinates: string[];
  /** their speeds (der(q) = qd), the velocities J multiplies */
  speeds: string[];
  /** 6 x n: rows v_x, v_y, v_z, w_x, w_y, w_z (world coordinates) */
  J: number[][];
  /** the frame's origin and orientation (frame to world) at the point */
  r: number[];
  /** the frame's orientation at the point (frame to world) */
  R: number[][];
  /** how J was computed: generated tangent code or symbolically (FrameJacobianOptions.method) */
  method: 'generated' | 'symbolic';
}

/** the coordinates' speeds must be states exactly: der(q) = qd */
const EXACT = 1e-12;

export interface FrameJacobianOptions extends PointOptions {
  /** as LinearizeOptions.method: unset, generated code from the second call with a compiled model and frame on */
  method?: 'generated' | 'symbolic';
}

/** (model or compiled model, frame name, point) => the frame's geometric Jacobian at the point */
export function frameJacobian(model: Model | CompiledModel, frame: string, options: FrameJacobianOptions = {}): FrameJacobian {
  return withLocalTable(() => {
    const { compiled, point, state } = operatingPoint(model, options);
    checkFrame(compiled, frame);
    const names = [...[1, 2, 3].map((k) => `${frame}.r[${k}]`), ...[1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `${frame}.R[${a}][${b}]`))];
    const solved = solvePoint(compiled, point, state);
    const values = names.map((y) => solved.state.signal(y));
    const fast =
      options.method === 'symbolic'
        ? 'the symbolic method was asked for'
        : generated(compiled, solved.state, point, names, values, options.method === 'generated');
    if (typeof fast === 'string' && options.method === 'generated') {
      throw new UsageError(`the frame Jacobian of ${frame} by generated code is not possible: ${fast}`, {
        hint: "leave method unset (or 'symbolic'): the symbolic Jacobian closes loops",
      });
    }
    let rows: (y: string) => ArrayLike<number>, pairs: { q: number; qd: number }[];
    if (typeof fast === 'string') {
      const s = sensitivities(compiled, point, [], solved);
      pairs = coordinatePairs(s);
      rows = (y) => s.row(y);
    } else {
      ({ pairs } = fast);
      rows = (y) => fast.rows[names.indexOf(y)];
    }
    const r = values.slice(0, 3);
    const R = [0, 1, 2].map((a) => values.slice(3 + 3 * a, 6 + 3 * a));
    const dr = [1, 2, 3].map((k) => rows(`${frame}.r[${k}]`));
    const dR = [1, 2, 3].map((a) => [1, 2, 3].map((b) => rows(`${frame}.R[${a}][${b}]`)));
    const J: number[][] = Array.from({ length: 6 }, () => []);
    for (const { q } of pairs) {
      // W = dR/dq R^T, skew-symmetric; its axial vector is the angular velocity per unit speed
      const W = (a: number, b: number) => dR[a][0][q] * R[b][0] + dR[a][1][q] * R[b][1] + dR[a][2][q] * R[b][2];
      const w = [(W(2, 1) - W(1, 2)) / 2, (W(0, 2) - W(2, 0)) / 2, (W(1, 0) - W(0, 1)) / 2];
      for (let k = 0; k < 3; k++) (J[k].push(dr[k][q]), J[3 + k].push(w[k]));
    }
    return {
      model: compiled.report.model,
      frame,
      coordinates: pairs.map((p) => compiled.stateNames[p.q]),
      speeds: pairs.map((p) => compiled.stateNames[p.qd]),
      J,
      r,
      R,
      method: typeof fast === 'string' ? 'symbolic' : 'generated',
    };
  });
}

/**
 * The rows of the frame's r and R by the states from generated code
 * (linearize-generated.ts), with the coordinates read off the signal
 * sources (der(q) an alias of the state qd); or why not
 */
function generated(
  compiled: CompiledModel,
  state: ModelState,
  point: OperatingPoint,
  names: readonly string[],
  values: readonly number[],
  eager: boolean,
): { rows: number[][]; pairs: { q: number; qd: number }[] } | string {
  const pairs = coordinates(compiled);
  if (pairs.length === 0) return 'no state q with der(q) = qd';
  const rows = generatedRows(compiled, state, point.x, point.t, [], names, names, values, eager);
  return typeof rows === 'string' ? rows : { rows, pairs };
}

/**
 * A frame's Jacobian as a generated function of the coordinates alone, for
 * many calls (a controller, an optimiser): `jacobian(q, J?)` writes J, 6 x n
 * row-major (rows v_x, v_y, v_z, w_x, w_y, w_z; columns `coordinates`), from
 * the position-level tangent code only: no point is solved, nothing is
 * checked or allocated per call. The model's relaxed plan must be
 * straight-line code (a tree); parameters and inputs keep the compiled
 * model's default values. `jdotqd(q, qd, out?)` writes J' qd (6: [a; alpha]
 * at qdd = 0, frame-bias.ts), its code made on its first call.
 */
export function frameJacobianFunction(
  compiled: CompiledModel,
  frame: string,
): {
  coordinates: string[];
  jacobian: (q: ArrayLike<number>, J?: Float64Array) => Float64Array;
  jdotqd: (q: ArrayLike<number>, qd: ArrayLike<number>, out?: Float64Array) => Float64Array;
} {
  checkFrame(compiled, frame);
  const names = [...[1, 2, 3].map((k) => `${frame}.r[${k}]`), ...[1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `${frame}.R[${a}][${b}]`))];
  const pairs = coordinates(compiled);
  const c = withLocalTable(() => codeFor(compiled, [], names, names, true)!);
  const why = typeof c === 'string' ? c : pairs.length === 0 ? 'no state q with der(q) = qd' : undefined;
  if (why !== undefined || typeof c === 'string') {
    throw new UsageError(`the frame Jacobian of ${frame} as a function of q cannot be generated: ${why}`, {
      hint: 'frameJacobian(model, frame, { at }) works on any model, loops included',
    });
  }
  const { code, D } = c,
    n = pairs.length,
    w = code.w;
  const x = compiled.x0(),
    u = Float64Array.from(compiled.defaults.u),
    p = Float64Array.from(compiled.defaults.p);
  const at = Int32Array.from(pairs, (c) => c.q);
  const point = c.loops ? loopPoint(compiled, frame, names, c.loops, code, x) : undefined;
  // workspace slots: R[a][b] at 3a + b, and coordinate i's rows dr[k] at 12 i + k, dR[a][b] at 12 i + 3 + 3a + b
  const R = Int32Array.from({ length: 9 }, (_, k) => code.slots[3 + k]);
  const d = Int32Array.from({ length: 12 * n }, (_, k) => code.slots[12 + (k % 12) * D + at[Math.floor(k / 12)]]);
  const jacobian = (q: ArrayLike<number>, J: Float64Array = new Float64Array(6 * n)): Float64Array => {
    if (q.length !== n || J.length !== 6 * n)
      throw new UsageError(
        `the Jacobian of ${frame} takes ${n} coordinates (${pairs.map((c) => compiled.stateNames[c.q]).join(', ')}) and a J of ${6 * n}, got ${q.length} and ${J.length}`,
      );
    for (let i = 0; i < n; i++) x[at[i]] = q[i];
    if (point) point.run();
    else code.run(0, x, u, p);
    for (let i = 0, o = 0; i < n; i++, o += 12) {
      for (let k = 0; k < 3; k++) J[k * n + i] = w[d[o + k]];
      // W = dR/dq R^T, skew-symmetric (frameJacobian), its axial vector: W(a, b) = sum_c dR[a][c] R[b][c]
      let W21 = 0,
        W12 = 0,
        W02 = 0,
        W20 = 0,
        W10 = 0,
        W01 = 0;
      for (let k = 0; k < 3; k++) {
        const d0 = w[d[o + 3 + k]],
          d1 = w[d[o + 6 + k]],
          d2 = w[d[o + 9 + k]];
        const r0 = w[R[k]],
          r1 = w[R[3 + k]],
          r2 = w[R[6 + k]];
        W21 += d2 * r1;
        W12 += d1 * r2;
        W02 += d0 * r2;
        W20 += d2 * r0;
        W10 += d1 * r0;
        W01 += d0 * r1;
      }
      J[3 * n + i] = (W21 - W12) / 2;
      J[4 * n + i] = (W02 - W20) / 2;
      J[5 * n + i] = (W10 - W01) / 2;
    }
    return J;
  };
  let bias: DerivedCode | undefined;
  const speedAt = Int32Array.from(pairs, (c) => c.qd);
  const jdotqd = (q: ArrayLike<number>, qd: ArrayLike<number>, out: Float64Array = new Float64Array(6)): Float64Array => {
    if (q.length !== n || qd.length !== n || out.length !== 6)
      throw new UsageError(
        `J' qd of ${frame} takes ${n} coordinates and ${n} speeds (${pairs.map((c) => compiled.stateNames[c.q]).join(', ')}) and an out of 6, got ${q.length}, ${qd.length} and ${out.length}`,
      );
    if (point) return loopBias(q, qd, out);
    const b = (bias ??= withLocalTable(() => frameBiasCode(compiled, straightPlan(compiled), frame, pairs)));
    for (let i = 0; i < n; i++) ((x[at[i]] = q[i]), (x[speedAt[i]] = qd[i]));
    b.run(0, x, u, p);
    // outputs: R[a][b] at 3a + b, r''[k] at 9 + k, R''[a][b] at 12 + 3a + b
    const v = (k: number) => b.w[b.slots[k]];
    for (let k = 0; k < 3; k++) out[k] = v(9 + k);
    // alpha = vee(R'' R^T): W(a, c) = sum_k R''[a][k] R[c][k]
    const W = (a: number, c: number) => v(12 + 3 * a) * v(3 * c) + v(13 + 3 * a) * v(3 * c + 1) + v(14 + 3 * a) * v(3 * c + 2);
    out[3] = (W(2, 1) - W(1, 2)) / 2;
    out[4] = (W(0, 2) - W(2, 0)) / 2;
    out[5] = (W(1, 0) - W(0, 1)) / 2;
    for (let k = 0; k < 6; k++)
      if (!Number.isFinite(out[k]))
        throw new SimulationError(`J' qd of ${frame} is not finite at this q, qd`, { hint: 'q or qd not finite, or a joint at a singular position' });
    return out;
  };
  // through a loop: the model's own accelerations at (q, qd) and any drive, [a; z] = J qdd + J' qd, so
  // J' qd = [a; z] - J qdd with the J of this point (the frame's a and z are its world-resolved accelerations)
  const J = new Float64Array(6 * n),
    accelerations = [...[1, 2, 3].map((k) => `${frame}.a[${k}]`), ...[1, 2, 3].map((k) => `${frame}.z[${k}]`)];
  const loopBias = (q: ArrayLike<number>, qd: ArrayLike<number>, out: Float64Array): Float64Array => {
    for (let i = 0; i < n; i++) x[speedAt[i]] = qd[i];
    jacobian(q, J);
    for (let k = 0; k < 6; k++) {
      let Jqdd = 0;
      for (let i = 0; i < n; i++) Jqdd += J[k * n + i] * point!.dx[speedAt[i]];
      out[k] = point!.state.signal(accelerations[k]) - Jqdd;
    }
    for (let k = 0; k < 6; k++)
      if (!Number.isFinite(out[k]))
        throw new SimulationError(`J' qd of ${frame} is not finite at this q, qd`, { hint: 'q or qd not finite, or the loop at a singular position' });
    return out;
  };
  return { coordinates: pairs.map((c) => compiled.stateNames[c.q]), jacobian, jdotqd };
}

/**
 * Through a kinematic loop the tangent code takes the point solved: the
 * model's own code closes the loop at x (its Newton warm start keeps the
 * assembly branch from call to call), then its blocks' z and J^-1 enter
 * the code (torn-point.ts), so J is by the independent coordinates, the
 * loop's joints following through its implicit tangent. The code's r and
 * R must be the model's there (else a relaxed pivot was not trusted and
 * its torn fallback solved the point).
 */
function loopPoint(
  compiled: CompiledModel,
  frame: string,
  names: readonly string[],
  loops: NonNullable<Code['loops']>,
  code: Code['code'],
  x: Float64Array,
): { run: () => void; state: ModelState; dx: Float64Array } {
  const state = compiled.createState(),
    dx = new Float64Array(x.length);
  const run = () => {
    state.derivatives(0, x, dx);
    loops.u.set(state.u);
    loops.point.fill(0, x, loops.u, state.p, state.w);
    code.run(0, x, loops.u, state.p);
    for (let k = 0; k < names.length; k++) {
      const v = code.w[code.slots[k]],
        want = state.signal(names[k]);
      if (!(Math.abs(v - want) <= 1e-9 * (1 + Math.abs(want))))
        throw new SimulationError(`the Jacobian of ${frame}: its code computes ${names[k]} = ${v} at this q, the compiled model ${want}`, {
          variables: [names[k]],
          hint: 'a relaxed loop is near a singular pivot here (its torn fallback ran): compile the model with { mode: "torn" }',
        });
    }
  };
  return { run, state, dx };
}

/** the states q with der(q) = qd, another state (an alias of it, or an assignment of it in the plan), by their indices in x */
function coordinates(compiled: CompiledModel): { q: number; qd: number }[] {
  // der(q) = qd: an alias of the state qd, or an assignment of it
  const states = compiled.plan.states,
    index = new Map(states.map((v, i) => [v.id, i]));
  const assigned = new Map<number, number>();
  for (const step of compiled.plan.steps) {
    if (step.kind !== 'assign') continue;
    for (const a of step.assigns) if (a.expr.op === 'sym' && index.has(a.expr.sym!.id)) assigned.set(a.target.id, index.get(a.expr.sym!.id)!);
  }
  return states.flatMap((v, q) => {
    const s = compiled.signalSource(`der(${v.name})`);
    const qd = s.from === 'x' && s.sign === 1 && s.offset === 0 ? s.index : v.derivative && assigned.get(v.derivative.id);
    return qd === undefined ? [] : [{ q, qd }];
  });
}

function checkFrame(compiled: CompiledModel, frame: string): void {
  if (!compiled.hasSignal(`${frame}.r[1]`) || !compiled.hasSignal(`${frame}.R[1][1]`)) {
    const frames = [
      ...new Set(
        compiled
          .signalNames()
          .filter((n) => n.endsWith('.R[1][1]'))
          .map((n) => n.slice(0, -'.R[1][1]'.length)),
      ),
    ];
    throw new ModelError(`no frame named ${frame}`, {
      variables: [frame],
      hint: `frames are named <component>.frame_a / frame_b, e.g. ${frames.slice(0, 8).join(', ')}${frames.length > 8 ? ', ...' : ''}`,
    });
  }
}

/** states q whose derivative is another state qd (der(q) = qd), by their indices in x */
function coordinatePairs(s: Sensitivities): { q: number; qd: number }[] {
  const names = s.compiled.stateNames,
    n = names.length;
  const pairs: { q: number; qd: number }[] = [];
  names.forEach((name, i) => {
    const row = s.row(`der(${name})`);
    const j = row.findIndex((a) => Math.abs(a - 1) <= EXACT);
    if (j >= 0 && j < n && row.every((a, k) => k === j || Math.abs(a) <= EXACT)) pairs.push({ q: i, qd: j });
  });
  if (pairs.length === 0) {
    throw new ModelError('the model has no coordinates among its states (no state q with der(q) = qd)', {
      variables: [...names],
      hint: 'a frame Jacobian is taken with respect to joint coordinates: use a mechanism whose joints have states',
    });
  }
  return pairs;
}
