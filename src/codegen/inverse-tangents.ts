// Generated tangents of a tree's inverse dynamics tau = ID(q, qd, qdd): the
// inverse problem of a tree is straight-line code (the sorted Newton-Euler
// equations), and its tangents (tangent.ts) give, as generated functions,
//   mass      M = dID/dqdd, its lower triangle (n directions qdd_j; ID is
//             linear in qdd, so the columns depend on q only). Entry (i, j),
//             i >= j, is tau_i's tangent along qdd_j: with parents numbered
//             before children only joint j's subtree moves, so the work is
//             O(sum of subtree sizes), the composite-rigid-body count;
//   jacobian  tau, dID/dq and dID/dqd (2n unit directions);
//   jvp       tau and its tangent along one direction (dq, dqd, dqdd) given
//             at run time as extra inputs: O(n), one Newton-Euler pass and
//             its tangent;
//   parameters(k) tau and dID/dp for chosen parameters left symbolic
//             (foldParameters: false): one direction per parameter.
// Each is generated on its first use and kept with the compiled model
// (a WeakMap: it goes with the model). With a kinematic loop the inverse
// problem has torn blocks (the positions closed by Newton, a linear block
// for velocities and one for accelerations and cut forces): their tangents
// are implicit (plan-tangents.ts), with each block's z and J^-1 extra inputs
// filled at run time (torn-point.ts, `loops`). A relaxing iteration or a
// block formed by columns has none: why is said.
//
// A free or ball joint's rotation about frame_b's axis k has no position of
// its own: its direction "q" moves the four numbers of its quaternion along
// 1/2 Q (x) (0, e_k) (rotationTangent), so dID/dq is taken on the tangent
// space of the rotations, n x n, as Pinocchio's derivatives are.
//
// Glossary: n coordinates, D directions; seeds as tangent.ts.
import { type Expr, ONE, ZERO, add, mul, num } from '../expr/index.ts';
import { Variable } from '../model/index.ts';
import type { SolvePlan } from '../structure/plan-types.ts';
import type { CompiledModel } from './compiled.ts';
import { type CoordinateSlots, coordinateSlots } from './coordinate-slots.ts';
import { type DerivedCode, derivedCode } from './derived.ts';
import { type PlanTangents, planTangents } from './plan-tangents.ts';
import { TornPoint } from './torn-point.ts';
import { type RigidTree, rigidTree } from './rigid-tree.ts';

/** coordinate j's q, qd or qdd moves by one along direction d (a number), or along direction 0 by a symbol's value */
type Seed = ['q' | 'qd' | 'qdd', number, number | Expr];

export class InverseTangents {
  readonly n: number;
  readonly slots: CoordinateSlots;
  /** the loops' z and J^-1, filled at a solved point; its extra inputs come first after the model's */
  readonly loops: TornPoint;
  /** how many extra inputs the loops take (none for a tree) */
  readonly loopInputs: number;
  private readonly plan: SolvePlan;
  private made: { mass?: DerivedCode; massBias?: MassBias; jacobian?: DerivedCode; jvp?: DerivedCode } = {};
  private readonly byParameters = new Map<string, DerivedCode>();

  /** `probe`: the plan's tangents in no direction, which say where its blocks' extra inputs go */
  constructor(
    readonly model: CompiledModel,
    plan: SolvePlan,
    probe: PlanTangents,
  ) {
    this.plan = plan;
    this.slots = coordinateSlots(model);
    this.n = this.slots.qAt.length;
    this.loops = new TornPoint(model, plan, probe, plan.inputs.length);
    this.loopInputs = probe.extra.length;
  }

  private tree: RigidTree | string | undefined;
  /**
   * The model's tree of rigid bodies for the analytical recursions
   * (rigid-tree.ts), read once; here because this module loads with the
   * compiler: a model run from the compile cache loads no library
   */
  rigidTree(): RigidTree | string {
    return (this.tree ??= rigidTree(this.model));
  }

  /** the plan's tangents from these seeds, or why there are none */
  tangentsOf(seeds: ReadonlyMap<number, readonly Expr[]>, D: number): PlanTangents | string {
    return planTangents(this.plan, this.plan.steps, seeds, D);
  }

  /** M's lower triangle, row by row: entry (i, j), j <= i, at i (i + 1) / 2 + j */
  get mass(): DerivedCode {
    return (this.made.mass ??= this.derive(
      'mass',
      this.n,
      (j) => [['qdd', j, j]],
      (tau, dtau) => {
        const out: Expr[] = [];
        for (let i = 0; i < this.n; i++) for (let j = 0; j <= i; j++) out.push(dtau(i, j));
        return out;
      },
    ));
  }

  /**
   * What forward dynamics takes from one run at (q, qd, 0): M's lower
   * triangle as `mass`, then tau there (h, the bias), then the tangents of
   * the loops' z along each qdd_j (z-major) — with them the z at any qdd is
   * z(0) + dz/dqdd qdd, exact where only linear blocks depend on qdd (ID is
   * affine in qdd), so the Jacobians' run needs no new solve of the loop
   */
  get massBias(): MassBias {
    if (this.made.massBias) return this.made.massBias;
    const n = this.n;
    let affine = true,
      zs = 0;
    const code = this.derive(
      'massBias',
      n,
      (j) => [['qdd', j, j]],
      (tau, dtau, t) => {
        const out: Expr[] = [];
        for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) out.push(dtau(i, j));
        for (let i = 0; i < n; i++) out.push(tau(i));
        for (const b of t.blocks) {
          const moves = b.z.some((z) => t.tangent(z.id)?.some((e) => !(e.op === 'const' && e.value === 0)));
          // a Newton block that moves with qdd is not affine in it: the Jacobians' run solves the loop again
          if (moves && this.plan.steps.some((st) => st.kind === 'newton' && st.block === b.block)) affine = false;
          for (const z of b.z) for (let j = 0; j < n; j++) out.push(t.tangent(z.id)?.[j] ?? ZERO);
          zs += b.z.length;
        }
        return out;
      },
    );
    return (this.made.massBias = { code, affine, zs });
  }

  /** tau, then dID/dq and dID/dqd row-major (n x n each) */
  get jacobian(): DerivedCode {
    const n = this.n;
    return (this.made.jacobian ??= this.derive(
      'jacobian',
      2 * n,
      (j) => [
        ['q', j, j],
        ['qd', j, n + j],
      ],
      (tau, dtau) => {
        const out = Array.from({ length: n }, (_, i) => tau(i));
        for (const from of [0, n]) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out.push(dtau(i, from + j));
        return out;
      },
    ));
  }

  /** tau and its tangent along (dq, dqd, dqdd), the 3n extra inputs after the model's */
  get jvp(): DerivedCode {
    return (this.made.jvp ??= this.directional());
  }

  /** tau, then dID/dp row-major (n x P), p the parameters at these indices of the plan's (symbolic) parameters */
  parameters(indices: readonly number[]): DerivedCode {
    const key = indices.join(',');
    let code = this.byParameters.get(key);
    if (!code) {
      const P = indices.length,
        n = this.n;
      const more = (seeds: Map<number, Expr[]>) =>
        indices.forEach((k, d) =>
          seeds.set(
            this.plan.parameters[k].id,
            Array.from({ length: P }, (_, e) => (e === d ? ONE : ZERO)),
          ),
        );
      code = this.derive(
        `parameters(${key})`,
        P,
        () => [],
        (tau, dtau) => [...Array.from({ length: n }, (_, i) => tau(i)), ...Array.from({ length: n * P }, (_, ij) => dtau((ij / P) | 0, ij % P))],
        [],
        more,
      );
      this.byParameters.set(key, code);
    }
    return code;
  }

  private directional(): DerivedCode {
    const n = this.n;
    const [dq, dqd, dqdd] = (['dq', 'dqd', 'dqdd'] as const).map((what) =>
      Array.from({ length: n }, (_, j) => new Variable(undefined, `${what}[${j}]`, 'input')),
    );
    const seed = (j: number): Seed[] => [
      ['q', j, dq[j].e],
      ['qd', j, dqd[j].e],
      ['qdd', j, dqdd[j].e],
    ];
    const taus = (f: (i: number) => Expr) => Array.from({ length: n }, (_, i) => f(i));
    return this.derive('jvp', 1, seed, (tau, dtau) => [...taus(tau), ...taus((i) => dtau(i, 0))], [...dq, ...dqd, ...dqdd]);
  }

  /**
   * The code of `outputs`, from the tangents in D directions seeded by
   * `seed(j)`: coordinate j's q, qd or qdd moves along direction d by one
   * (a number d) or by a given symbol's value
   */
  private derive(
    name: string,
    D: number,
    seed: (j: number) => Seed[],
    outputs: (tau: (i: number) => Expr, dtau: (i: number, d: number) => Expr, t: PlanTangents) => Expr[],
    extra: Variable[] = [],
    more?: (seeds: Map<number, Expr[]>) => void,
  ): DerivedCode {
    const { plan, slots } = this;
    const seeds = new Map<number, Expr[]>();
    more?.(seeds);
    for (let j = 0; j < this.n; j++) {
      for (const [what, , d] of seed(j)) {
        const quaternion = what === 'q' ? slots.quaternion[j] : undefined;
        const v = what === 'q' ? plan.states[slots.qAt[j]] : what === 'qd' ? plan.states[slots.qdAt[j]] : plan.inputs[slots.qddAt[j]];
        // a quaternion joint's rotation moves its four Q at once (rotationTangent); the others their own variable by one
        const moves = quaternion
          ? rotationTangent(
              Array.from(quaternion.Q, (i) => plan.states[i]),
              quaternion.axis,
            )
          : [[v, ONE] as const];
        for (const [m, by] of moves) {
          const dirs = seeds.get(m.id) ?? new Array<Expr>(D).fill(ZERO);
          const k = typeof d === 'number' ? d : 0;
          // several rotations of one joint seed its Q in the same run-time direction: their moves add
          dirs[k] = add(dirs[k], typeof d === 'number' ? by : mul(by, d));
          seeds.set(m.id, dirs);
        }
      }
    }
    const t = this.tangentsOf(seeds, D);
    if (typeof t === 'string') throw new Error(t); // the constructor's probe said it works
    // tau_i is sign * (an unknown, or an input) + offset, or a constant (tauFrom, compiled-data.ts)
    const source = (i: number) => {
      const s = slots.tauFrom[i];
      return { s, v: s.from === 'w' ? plan.unknowns[s.index] : s.from === 'u' ? plan.inputs[s.index] : undefined };
    };
    const tau = (i: number) => {
      const { s, v } = source(i);
      return v ? add(mul(s.sign, v.e), s.offset) : num(s.offset);
    };
    const dtau = (i: number, d: number) => {
      const { s, v } = source(i);
      const dv = v && t.tangent(v.id);
      return dv ? mul(s.sign, dv[d]) : ZERO;
    };
    return derivedCode(plan, [...t.extra, ...extra], t.assigns, outputs(tau, dtau, t), `${this.model.report.model}.${name}`, this.model.fail);
  }
}

/** InverseTangents.massBias: the code, whether the loops' z are affine in qdd, and how many z there are */
export interface MassBias {
  readonly code: DerivedCode;
  readonly affine: boolean;
  readonly zs: number;
}

const cache = new WeakMap<CompiledModel, InverseTangents | string>();

/**
 * The tangent code of a model compiled for the inverse problem, made once;
 * a string saying why there is none (the inverse problem has a loop)
 */
export function inverseTangents(model: CompiledModel): InverseTangents | string {
  let made = cache.get(model);
  if (made === undefined) {
    const plan = model.plan;
    const probe = planTangents(plan, plan.steps, new Map(), 0);
    made = typeof probe === 'string' ? `its inverse problem has no implicit tangents: ${probe}` : new InverseTangents(model, plan, probe);
    cache.set(model, made);
  }
  return made;
}

/**
 * The tangent of Q (x) exp(delta e_axis / 2) at delta = 0, 1/2 Q (x) (0, e_axis):
 * Pinocchio's integrate on a unit quaternion, its perturbation on the right
 * because the joint's angular velocity w is resolved in frame_b
 * (der(Q) = 1/2 Q (x) (0, w), quaternion.ts). R(Q) is R(Q / |Q|), so a Q
 * not quite of unit norm moves the rotation the same way.
 */
function rotationTangent(Q: readonly Variable[], axis: number): (readonly [Variable, Expr])[] {
  const [w, x, y, z] = Q.map((v) => v.e);
  const half = (...e: Expr[]) => e.map((v, i) => [Q[i], mul(0.5, v)] as const);
  const neg = (e: Expr) => mul(-1, e);
  if (axis === 0) return half(neg(x), w, z, neg(y));
  if (axis === 1) return half(neg(y), neg(z), w, x);
  return half(neg(z), y, neg(x), w);
}
