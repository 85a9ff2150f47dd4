// The fuzzer's family of singular positions (--family singular): mechanisms
// whose motion runs into a position where the equations are singular, judged
// by a run instead of one state (issue 28).
//   change point: a planar four-bar with a + d = b + c + eps (eps = 0 folds
//                 flat at theta = pi: a change point; small eps an avoided
//                 crossing; eps < 0 a crank that stops short of pi), its
//                 crank started before pi at a random speed;
//   gimbal:       a free body on a Cardan spherical joint without gravity,
//                 started with q[2] near +-90 degrees and turning towards it
//                 or anywhere.
// No springs, dampers or drives: energy.total is constant. The run is RK4 at
// a random step from 1e-3 to 1e-2, in both modes; the reference, RK4 at a
// tenth of the step. Classes (check.ts):
//   run-error  a mode stops with the typed assembly-branch or gimbal-lock
//              error, or at a dead point (the other stops too, or follows
//              the reference); the note says `late` when the energy had
//              changed by 1e-3 before the stop;
//   agree      neither stops, and both follow the reference: on its assembly
//              branch, the crank and rocker angles (or the body's rotation
//              matrix) and the energy within JUMP = 0.1 of it at the end;
//              beyond 1e-2 and 1e-3 the note says `inaccurate` (RK4's own
//              error on a turn the step does not resolve, not a jump); when
//              the reference itself stops with a typed error (a short step
//              lands past a dead point the long one turned back before),
//              the energy alone, within 1e-3, and the note `by energy alone`;
// failure `silent`: a run that ends without an error on another branch, or
// off the reference or its energy by JUMP (what the checks exist to
// prevent), or that stops with another error.
import { KronError, SimulationError, compile, type CompiledModel, type Mode } from '../../src/index.ts';
import { prng } from '../../test/multibody/random-tree.ts';
import { drift, rk4Run } from '../../test/multibody/rk4-run.ts';
import type { BodySpec, LinkSpec, MechanismSpec } from './spec.ts';
import type { CaseResult } from './check.ts';

/** what a run of a singular-family case starts from and how it is stepped */
export interface Trajectory {
  /** start values of states by name (speeds; the positions are the links' q) */
  start: Record<string, number>;
  step: number;
  stop: number;
  /** well-conditioned signals compared with the reference at the end (the crank and rocker angles; the body's rotation matrix) */
  compare: string[];
  /** a four-bar's assembly branch at the end: the sign of sin(coupler angle - rocker angle), from [crank, coupler relative, rocker] */
  elbow?: [string, string, string];
}

const Z: [number, number, number] = [0, 0, 1];
/** what a run may stop with: a loop leaving its branch, at a dead point or not closing past one, or a joint at gimbal lock */
const TYPED = /assembly branch|singular position|does not close|Newton iteration did not converge|gimbal lock/;

/** a slender rod of mass m from the joint along x, length l */
const rod = (m: number, l: number): BodySpec => ({ m, rcm: [l / 2, 0, 0], I: [1e-4 * m, (m * l * l) / 12, (m * l * l) / 12, 0, 0, 0] });

// (seed) => a mechanism of the family with its run
export function generateSingular(seed: number): MechanismSpec {
  const rnd = prng(seed);
  const step = [1e-3, 2e-3, 5e-3, 1e-2][Math.floor(rnd() * 4)];
  return rnd() < 0.5 ? changePoint(seed, rnd, step) : gimbal(seed, rnd, step);
}

function changePoint(seed: number, rnd: () => number, step: number): MechanismSpec {
  const eps = [0, 0, 1e-3, 1e-2, -1e-2][Math.floor(rnd() * 5)];
  const a = 0.1 + 0.15 * rnd(),
    d = 0.45 + 0.3 * rnd();
  const b = (a + d + eps) * (0.35 + 0.3 * rnd()),
    c = a + d + eps - b;
  // the crank's reach: pi, or short of it when b + c < a + d (|B - D| <= b + c)
  const reach = eps < 0 ? Math.acos((a * a + d * d - (b + c) ** 2) / (2 * a * d)) : Math.PI;
  const theta = reach - 0.05 - 0.3 * rnd(),
    w = 2 + 6 * rnd();
  // assembled in closed form, rocker above the ground line: |C - B| = b with C = D + c (cos phi, sin phi)
  const B = [a * Math.cos(theta), a * Math.sin(theta)],
    DB = [B[0] - d, B[1]],
    r = Math.hypot(DB[0], DB[1]);
  const phi = Math.atan2(DB[1], DB[0]) - Math.acos(Math.min(1, Math.max(-1, (c * c + r * r - b * b) / (2 * c * r))));
  const C = [d + c * Math.cos(phi), c * Math.sin(phi)];
  const psi = Math.atan2(C[1] - B[1], C[0] - B[0]);
  const link = (parent: number, bar: [number, number, number] | undefined, q: number, body: BodySpec, state?: boolean): LinkSpec => ({
    parent,
    bar,
    joint: 'revolute',
    axes: [Z],
    q: [q],
    c: 0,
    q0: 0,
    d: 0,
    body,
    state,
  });
  const links = [
    link(-1, undefined, theta, rod(1 + rnd(), a), true),
    link(0, [a, 0, 0], psi - theta, rod(1 + rnd(), b)),
    link(-1, [d, 0, 0], phi, rod(1 + rnd(), c)),
  ];
  const cut = {
    type: 'planar' as const,
    a: { link: 1, bar: [b, 0, 0] as [number, number, number] },
    b: { link: 2, bar: [c, 0, 0] as [number, number, number] },
    axes: [Z],
    c: 0,
    q0: 0,
    d: 0,
  };
  return {
    seed,
    shape: `change-point:eps=${eps}`,
    gravity: rnd() < 0.5 ? [0, 0, 0] : [0, -9.80665, 0],
    links,
    cuts: [cut],
    trajectory: { start: { 'j1.qd': w }, step, stop: 0.3, compare: ['j1.q', 'j3.q'], elbow: ['j1.q', 'j2.q', 'j3.q'] },
  };
}

function gimbal(seed: number, rnd: () => number, step: number): MechanismSpec {
  const aimed = rnd() < 0.6,
    side = rnd() < 0.5 ? 1 : -1;
  const q = [rnd() - 0.5, aimed ? side * (Math.PI / 2 - 0.1 - 0.4 * rnd()) : 1.6 * (rnd() - 0.5), rnd() - 0.5];
  const qd = [2 * (rnd() - 0.5), (aimed ? side : rnd() < 0.5 ? 1 : -1) * (0.5 + 2.5 * rnd()), 2 * (rnd() - 0.5)];
  // principal moments x + y, y + z, z + x: the triangle inequality holds
  const [x, y, z] = [0.005 + 0.03 * rnd(), 0.005 + 0.03 * rnd(), 0.005 + 0.03 * rnd()];
  const I = [x + y, y + z, z + x];
  const body: BodySpec = { m: 1 + rnd(), rcm: [0.3 * rnd(), 0.1 * (rnd() - 0.5), 0.1 * (rnd() - 0.5)], I: [I[0], I[1], I[2], 0, 0, 0] };
  const links: LinkSpec[] = [{ parent: -1, joint: 'spherical', axes: [], q, c: 0, q0: 0, d: 0, body }];
  return {
    seed,
    shape: `gimbal:${aimed ? 'aimed' : 'any'}`,
    gravity: [0, 0, 0],
    links,
    cuts: [],
    trajectory: {
      start: Object.fromEntries(qd.map((v, i) => [`j1.qd[${i + 1}]`, v])),
      step,
      stop: 0.5,
      compare: [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `j1.frame_b.R[${i}][${j}]`)),
    },
  };
}

/** off the reference by this much (rad, or in a rotation matrix's entries), or the energy by this fraction: another branch or a jump */
const JUMP = 0.1;

const describe = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message.split('\n')[0].slice(0, 200)}` : String(e));

// (seed, spec, its run, the mechanism builder) => the case's class, judged by the run in both modes against the reference
export function trajectoryCase(
  seed: number,
  spec: MechanismSpec,
  trajectory: Trajectory,
  build: (spec: MechanismSpec) => Parameters<typeof compile>[0],
): CaseResult {
  const base = { seed, shape: spec.shape, features: spec.shape };
  const fail = (detail: string): CaseResult => ({ ...base, failure: { kind: 'silent', detail } });
  const names = [...new Set(['energy.total', ...trajectory.compare, ...(trajectory.elbow ?? [])])];
  const runOf = (c: CompiledModel, h: number) => rk4Run(c, h, trajectory.stop, names, trajectory.start);
  const verdicts: string[] = [];
  let stopped = 0,
    through = 0,
    inaccurate: string | undefined,
    unjudged: string | undefined;
  for (const mode of ['torn', 'relaxed'] as Mode[]) {
    let c: CompiledModel;
    try {
      c = compile(build(spec), { mode });
    } catch (e) {
      return e instanceof KronError
        ? { ...base, cls: 'compile-error', note: describe(e) }
        : { ...base, failure: { kind: 'crash', detail: `${mode} compile: ${describe(e)}` } };
    }
    const run = runOf(c, trajectory.step);
    const energy = drift(run.signals['energy.total']);
    if (run.error) {
      if (!(run.error instanceof SimulationError) || !TYPED.test(run.error.message)) return fail(`${mode} stops with another error: ${describe(run.error)}`);
      stopped++;
      // the energy up to the stop, counted: approaching a dead point of its state joint the motion is singular and a
      // step gains energy before Newton stops closing there (the run gives no result, so this is not a failure)
      verdicts.push(`${describe(run.error)}${energy < 1e-3 ? '' : ` [late: energy changed by ${energy.toExponential(1)} before]`}`);
      continue;
    }
    const fine = runOf(c, trajectory.step / 10);
    if (fine.error) {
      // a crank that turns back at a dead point (eps < 0): the long step turns with it, the short one lands past the
      // fold and stops there; without a reference the run is judged by its energy alone
      if (!(fine.error instanceof SimulationError) || !TYPED.test(fine.error.message) || !(energy < 1e-3))
        return fail(
          `${mode} runs through at h = ${trajectory.step}, its energy changed by ${energy.toExponential(2)}, and stops at a tenth of it: ${describe(fine.error)}`,
        );
      unjudged = `${mode}: the run at h / 10 stopped (${describe(fine.error).slice(0, 80)}), energy ${energy.toExponential(1)}`;
      through++;
      continue;
    }
    const end = (r: typeof run, n: string) => r.signals[n][r.signals[n].length - 1];
    const off = Math.max(...trajectory.compare.map((n) => Math.abs(end(run, n) - end(fine, n))));
    const e = trajectory.elbow,
      elbow = (r: typeof run) => (e ? Math.sign(Math.sin(end(r, e[0]) + end(r, e[1]) - end(r, e[2]))) : 0);
    // another assembly branch, or a jump of the energy (79% on the four-bar, 45% on a free link): silently wrong
    if (elbow(run) !== elbow(fine) || !(off < JUMP) || !(energy < JUMP))
      return fail(
        `${mode} runs through without an error, ${elbow(run) !== elbow(fine) ? 'on the other assembly branch than the run at h / 10, ' : ''}${off.toExponential(2)} off it, its energy changed by ${energy.toExponential(2)}`,
      );
    // within that, RK4's own error on a fast turn the step does not resolve (an avoided crossing): counted, not failed
    if (!(off < 1e-2) || !(energy < 1e-3)) inaccurate = `${mode}: ${off.toExponential(1)} off the run at h / 10, energy ${energy.toExponential(1)}`;
    through++;
  }
  // one mode may stop where the other follows the reference (their tearing variables, hence det J, differ): both are right
  if (stopped) return { ...base, cls: 'run-error', note: through ? `${verdicts[0]} (the other mode ran through, on the reference)` : verdicts[0] };
  return { ...base, cls: 'agree', ...((unjudged ?? inaccurate) && { note: unjudged ? `by energy alone: ${unjudged}` : `inaccurate: ${inaccurate}` }) };
}
