// The proof behind mode 'auto' as the default: on every model module of
// mechanisms/ (each variant) and on the URDF robots the repository ships and
// tests use, the torn and the relaxed form compile, agree on every signal at
// random states near the start (1e-9 relative) and over a whole short RK4
// run, and auto keeps the one with the lower weighted operation count,
// computing what that form compiled alone computes, bit for bit; when it does
// not compile the torn form, the lower bound it read is one. Measured
// (2026-11-25): the largest difference 3.6e-12 (fourbar), runs 1.3e-13.
// Floating robots (issue 29: HyQ and Atlas on free roots from their URDF,
// the humanoid module on a free base, the tumbling box): the same proof.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CompiledModel, type Model, compile, loadUrdf, simulate } from '../../src/index.ts';
import { modeCost } from '../../src/structure/costs.ts';
import { prng } from '../multibody/random-tree.ts';

const dir = new URL('../../mechanisms/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort();
/** modules whose `variant` parameter selects other hints (tearing and relaxing papers' variants) */
/** models RK4 needs a smaller step for than 1e-3 (its stability check says so): the stiff PUMA's fastest mode is -1e5 1/s */
const RUNS: Record<string, { stop: number; step: number; interval: number }> = { 'puma560-stiff.ts': { stop: 0.05, step: 2e-5, interval: 0.005 } };
const VARIANTS: Record<string, number[]> = { 'bondgraph.ts': [0, 1, 2], 'resistorladder.ts': [0, 1, 2, 3] };
const URDF = ['mechanisms/puma560.urdf', 'test/limits/fixtures/arm.urdf'];
/** robots that move in the world (issue 29): free roots, ball joints, a floating humanoid on its base */
const FLOATING_URDF = ['bench/robots/hyq.urdf', 'bench/robots/atlas.urdf'];
const FLOATING_MODULES: [string, object][] = [['humanoid.ts', { floating: 1 }]];

const cases: [string, () => Promise<() => Model>][] = [
  ...files.flatMap((f) =>
    (VARIANTS[f] ?? [undefined]).map((variant): [string, () => Promise<() => Model>] => [
      variant === undefined ? f : `${f} variant ${variant}`,
      async () => {
        const build = (await import(`../../mechanisms/${f}`)).default as (p?: object) => Model;
        return () => build(variant === undefined ? {} : { variant });
      },
    ]),
  ),
  ...URDF.map((u): [string, () => Promise<() => Model>] => [u, async () => () => loadUrdf(new URL(`../../${u}`, import.meta.url).pathname).mechanism]),
  ...FLOATING_URDF.map((u): [string, () => Promise<() => Model>] => [
    `${u} --floating`,
    async () => () => loadUrdf(new URL(`../../${u}`, import.meta.url).pathname, { floating: true }).mechanism,
  ]),
  ...FLOATING_MODULES.map(([f, p]): [string, () => Promise<() => Model>] => [
    `${f} ${JSON.stringify(p)}`,
    async () => {
      const build = (await import(`../../mechanisms/${f}`)).default as (p?: object) => Model;
      return () => build(p);
    },
  ]),
];

/** every signal both forms name, at (t, x) */
function signals(c: CompiledModel, names: readonly string[], x: Float64Array): number[] {
  const state = c.createState();
  state.derivatives(0.25, x, new Float64Array(x.length));
  return names.map((n) => state.reader(n)(x));
}

/**
 * the largest |a - b| over the scale of the larger side, floored at 1 and at 1e-3 of the largest
 * value of all (floor 0 for a run's state, compared signal by signal): a sum of forces that is zero,
 * like the world's reaction to a floating robot's free joint, is computed from numbers of its weight
 * (Atlas: 1.2e-9 N of a 1.5 kN robot, the relaxed form's rounding), and a mass matrix's rounding
 * scales with its largest entries
 */
function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>, floor = 0): number {
  let largest = 0;
  if (floor) for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]!), Math.abs(b[i]!));
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / Math.max(1, floor * largest, Math.abs(a[i]!), Math.abs(b[i]!)));
  return worst;
}

describe('torn and relaxed agree on every model, and auto keeps the cheaper', () => {
  it.each(cases)('%s', async (name, load) => {
    const build = await load();
    const torn = compile(build(), { mode: 'torn' }),
      relaxed = compile(build(), { mode: 'relaxed' });
    const auto = compile(build(), { mode: 'auto' });
    const cheaper = modeCost(relaxed.report.ops) <= modeCost(torn.report.ops) ? relaxed : torn;
    expect(auto.report.mode).toBe(cheaper.report.mode);
    expect(auto.report.auto).toMatchObject({ chosen: cheaper.report.mode, relaxed: { cost: modeCost(relaxed.report.ops) } });
    // the torn form's cost, or, not compiled, a lower bound of it above the relaxed form's
    const t = auto.report.auto!.torn;
    if ('atLeast' in t) {
      expect(t.atLeast).toBeGreaterThan(modeCost(relaxed.report.ops));
      expect(t.atLeast).toBeLessThanOrEqual(modeCost(torn.report.ops));
    } else expect(t).toEqual({ cost: modeCost(torn.report.ops), ops: torn.report.ops });

    expect(relaxed.stateNames).toEqual(torn.stateNames);
    const names = torn.signalNames().filter((n) => relaxed.hasSignal(n));
    expect(names.length).toBeGreaterThanOrEqual(torn.stateNames.length);
    const next = prng([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7));
    let worst = 0;
    for (let k = 0; k < 4; k++) {
      // near the start: a loop's closure keeps the assembly it starts in
      const x = torn.x0().map((v) => v + (k === 0 ? 0 : 0.1 * (next() - 0.5)));
      worst = Math.max(worst, relativeDifference(signals(torn, names, x), signals(relaxed, names, x), 1e-3));
      expect(signals(auto, names, x)).toEqual(signals(cheaper, names, x));
    }
    const run = RUNS[name] ?? { stop: 0.5, step: 1e-3, interval: 0.05 };
    const a = simulate(torn, run),
      b = simulate(relaxed, run);
    let worstRun = 0;
    for (const s of torn.stateNames) worstRun = Math.max(worstRun, relativeDifference(a.get(s), b.get(s)));
    expect(worst).toBeLessThanOrEqual(1e-9);
    expect(worstRun).toBeLessThanOrEqual(1e-9);
  });
});
