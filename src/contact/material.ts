// Contact parameters of a geometry, and the rule that makes one set for a
// pair. A geometry gives either a stiffness k (N/m^n) and damping c, or
// MuJoCo's solref pair (time constant tc, damping ratio zeta), which is per
// unit mass: MuJoCo's reference acceleration a = -b v - k' d with
// b = 2 / tc and k' = 1 / (tc^2 zeta^2) (dmax = 1; MuJoCo docs,
// "Solver parameters"), so with the pair's effective mass m_e
//   k = m_e / (tc zeta)^2        c = 2 m_e / tc
// (MuJoCo uses the inverse of the contact's constraint-space inertia at run
// time; we use the bodies' masses m_e = m1 m2 / (m1 + m2), a body against
// the world m_e = m: exact for a free body hit through its centre of mass).
//
// The pair rule, when both geometries give parameters (Drake's point contact,
// "Compliant contact models"): stiffnesses in series k = k1 k2 / (k1 + k2)
// (two compliant surfaces pressed together), damping weighted the same way
// c = (k2 c1 + k1 c2) / (k1 + k2); friction the larger of the two, as MuJoCo
// (friction is a property of the softer or rougher surface: a rubber foot on
// any floor grips). A geometry without parameters (the usual ground plane)
// takes the other's as they are, so a sphere's own values are its contact's.
import { ModelError } from '../errors.ts';

/** the normal force law: linear spring-damper, or Hunt-Crossley (k + c delta') delta^n */
export type ContactLaw = 'linear' | 'hunt-crossley';

/** a geometry's contact parameters: stiffness and damping, or MuJoCo's time constant and damping ratio; friction; the law */
export interface ContactMaterial {
  /** normal stiffness (N/m for the linear law, N/m^n for Hunt-Crossley) */
  stiffness?: number;
  /** normal damping: N s/m (linear law, fn = k d + c d'), or N s/m^(n+1) (Hunt-Crossley, fn = d^n (k + c d')) */
  damping?: number;
  /** MuJoCo's solref instead of stiffness and damping: time constant (s) ... */
  timeConstant?: number;
  /** ... and damping ratio (1: critical) */
  dampingRatio?: number;
  /** Coulomb friction coefficient (default 1, MuJoCo's sliding friction) */
  friction?: number;
  /** 'linear' (default) or 'hunt-crossley' */
  law?: ContactLaw;
  /** Hunt-Crossley's exponent n (default 1.5, Hertz) */
  exponent?: number;
}

/** a pair's parameters as the force law reads them */
export interface PairMaterial {
  readonly k: number;
  readonly c: number;
  readonly mu: number;
  readonly law: ContactLaw;
  readonly n: number;
}

/** MuJoCo's default solref (0.02 s, 1) and friction 1: what a pair gets when neither side says */
export const DEFAULT_MATERIAL: ContactMaterial = { timeConstant: 0.02, dampingRatio: 1, friction: 1 };

// (material, owner for messages) => nothing, or a ModelError naming the bad parameter
export function checkMaterial(m: ContactMaterial, owner: string): void {
  const bad = (what: string, hint: string) => new ModelError(`contact parameters of ${owner}: ${what}`, { component: owner, hint });
  const nonNegative = (name: keyof ContactMaterial, positive = false) => {
    const v = m[name];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && (positive ? v > 0 : v >= 0)))
      throw bad(`${name} ${String(v)} is not a finite number ${positive ? '> 0' : '>= 0'}`, `give ${name} as a number`);
  };
  (nonNegative('stiffness', true),
    nonNegative('damping'),
    nonNegative('timeConstant', true),
    nonNegative('dampingRatio', true),
    nonNegative('friction'),
    nonNegative('exponent', true));
  if (m.law !== undefined && m.law !== 'linear' && m.law !== 'hunt-crossley')
    throw bad(`law "${String(m.law)}" is not known`, "use 'linear' or 'hunt-crossley'");
  const solref = m.timeConstant !== undefined || m.dampingRatio !== undefined;
  if (solref && (m.stiffness !== undefined || m.damping !== undefined))
    throw bad('both stiffness/damping and timeConstant/dampingRatio are given', 'give one of the two ways');
  if (m.damping !== undefined && m.stiffness === undefined) throw bad('damping without stiffness', 'give stiffness too (or timeConstant and dampingRatio)');
  if (solref && m.law === 'hunt-crossley')
    throw bad("timeConstant/dampingRatio describe the linear law, not 'hunt-crossley'", 'give stiffness and damping for Hunt-Crossley');
}

// (material, effective mass of the pair) => k and c of the material on its own
function springOf(m: ContactMaterial, mass: number): { k: number; c: number } {
  if (m.stiffness !== undefined) return { k: m.stiffness, c: m.damping ?? 0 };
  const tc = m.timeConstant ?? DEFAULT_MATERIAL.timeConstant!,
    zeta = m.dampingRatio ?? DEFAULT_MATERIAL.dampingRatio!;
  return { k: mass / (tc * zeta) ** 2, c: (2 * mass) / tc };
}

// (material of A or undefined, of B or undefined, effective mass of the pair (kg)) => the pair's parameters
export function pairMaterial(a: ContactMaterial | undefined, b: ContactMaterial | undefined, mass: number): PairMaterial {
  const one = (m: ContactMaterial): PairMaterial => {
    const { k, c } = springOf(m, mass);
    return { k, c, mu: m.friction ?? DEFAULT_MATERIAL.friction!, law: m.law ?? 'linear', n: m.exponent ?? 1.5 };
  };
  if (!a || !b) return one(a ?? b ?? DEFAULT_MATERIAL);
  const [A, B] = [one(a), one(b)];
  if (A.law !== B.law || A.n !== B.n) {
    throw new ModelError(
      `a contact pair mixes laws (${A.law}${A.law === 'hunt-crossley' ? ` n ${A.n}` : ''} and ${B.law}${B.law === 'hunt-crossley' ? ` n ${B.n}` : ''})`,
      { hint: 'give both geometries the same law and exponent, or contact parameters on one side only' },
    );
  }
  const k = (A.k * B.k) / (A.k + B.k);
  return { k, c: (B.k * A.c + A.k * B.c) / (A.k + B.k), mu: Math.max(A.mu, B.mu), law: A.law, n: A.n };
}

/** the effective mass m1 m2 / (m1 + m2) of two bodies (Infinity: the world) */
export function effectiveMass(m1: number, m2: number): number {
  if (m1 === Infinity) return m2;
  if (m2 === Infinity) return m1;
  return (m1 * m2) / (m1 + m2);
}
