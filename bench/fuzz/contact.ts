// One case of the contact family (contact-generate.ts): a random tree
// dropped on the ground, run for 1 s by the default integrator (RK4 where
// its step of 1e-3 s is stable, radau from where the stability check says it
// is not: the stability-checked step), sampled every 5 ms, and judged by
//   nan     the run stops with a non-finite value, or a sample is not finite
//   disagree (pairs) the scene's pairs are not those of the rule enumerated
//           here over the tree: the bits meet, not one body, not a link and
//           its parent's body (contype/conaffinity, scene-pairs.ts)
//   tunnel  a geometry deeper in the ground, or in another geometry of the
//           tree (self-contact), than DEPTH_FACTOR times the
//           larger of the static penetration M g / k and the dynamic one of
//           the whole energy E put into one contact's spring: sqrt(2 E / k)
//           for the linear law, ((n + 1) E / k)^(1 / (n + 1)) for
//           Hunt-Crossley (M the tree's mass, k the least stiffness, E the
//           energy above the ground at the start)
//   energy  energy.total above its start by more than ENERGY_TOL of E (the
//           contacts' springs store energy, their dampers and friction and
//           the joints' dampers take it: it may not grow without input;
//           elasto-plastic friction: more than that and what its bristles
//           can hold, the largest over the samples of the sum over the
//           pushing contacts of (mu fn)^2 / (2 kt), which energy.total does
//           not count), or
//           energy.total - contact_work above its start by more than
//           WORK_TOL of E: contact_work is a state, integrated through each
//           impact at the run's step, and a fixed step meets the force's
//           onset to O(h) (restitution.test.ts), so its bound is looser.
//           Seeds 1..100 (with tips and bits, contact-generate.ts):
//           energy.total at most 1.5e-12 E above its start, total - work
//           1.2e-2 E (seed 2), the deepest 0.22 of the bound; the tree
//           touched itself in 6 cases (seeds 9, 26, 34, 46, 76, 83; at most
//           0.077 of the bound deep). (Before tips and bits: 1.8e-12, 5.7e-3
//           at seed 39, 0.22. A draft with a tip on every leaf, radius 0.03
//           to 0.06, failed seed 84: total - work 3.3e-2 E, energy.total
//           not rising: the work's onset error at a small fast sphere's
//           landing at RK4's step.)
//   friction the case's law (contact-generate.ts): the regularised one, or
//           elasto-plastic, which the default integrator runs with radau
//   disagree the torn and relaxed forms' derivatives at sampled states with
//           contacts (up to 4, with the same contact forces written into
//           each, ContactRun) differ by more than 1e-10 relative
//   run-failed any other typed error (compile, scene or run)
// and `agree` otherwise; the note says how deep the deepest contact went,
// relative to the bound, and the largest energy rise.
import { ContactScene, KronError, compile, simulate, type CompiledModel } from '../../src/index.ts';
import { ContactRun } from '../../src/contact/run.ts';
import { tangentialSpring } from '../../src/contact/elasto-plastic.ts';
import type { CaseResult } from './check.ts';
import { type Bits, type ContactTree, GROUND_BITS, buildContact, contactFeatures } from './contact-generate.ts';

const DEPTH_FACTOR = 3;
const ENERGY_TOL = 1e-3;
const WORK_TOL = 2e-2;
const AGREE = 1e-10;
const G = 9.81;

const describeError = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message.split('\n')[0].slice(0, 200)}` : String(e));

export function contactCase(seed: number, tree: ContactTree): CaseResult {
  const base = { seed, shape: `contact tree of ${tree.links.length + 1}`, features: contactFeatures(tree) };
  const fail = (kind: NonNullable<CaseResult['failure']>['kind'], detail: string): CaseResult => ({ ...base, failure: { kind, detail } });
  let forms: { compiled: CompiledModel; scene: ContactScene }[];
  try {
    forms = (['torn', 'relaxed'] as const).map((mode) => {
      const mech = buildContact(tree, seed);
      return { compiled: compile(mech, { mode }), scene: ContactScene.of(mech, { slipSpeed: tree.slipSpeed, friction: tree.friction }) };
    });
  } catch (e) {
    return e instanceof KronError ? fail('run-failed', `compile: ${describeError(e)}`) : fail('crash', `compile: ${describeError(e)}`);
  }
  const [{ compiled, scene }] = forms;
  const wrong = pairsAgainstRule(tree, scene);
  if (wrong) return fail('disagree', wrong);
  // the generator's promise: nothing touches at the start (else the start's overlap is energy put in)
  const start = new ContactRun(scene, compiled.createState());
  start.apply(0, compiled.x0());
  if (start.normalForces.subarray(0, start.contacts.count).some((f) => f > 0)) {
    const [i, j] = scene.pairs[start.contacts.pair[0]];
    return fail('crash', `generator: ${scene.geometries[i].name} and ${scene.geometries[j].name} overlap at the start`);
  }
  const names = [...compiled.stateNames, 'energy.total', 'energy.contact_work'];
  let res: ReturnType<typeof simulate>;
  try {
    res = simulate(compiled, { stop: tree.stop, interval: 0.005, contact: scene, signals: names });
  } catch (e) {
    if (!(e instanceof KronError)) return fail('crash', `run: ${describeError(e)}`);
    return fail(/non-finite/.test(e.message) ? 'nan' : 'run-failed', describeError(e));
  }
  const columns = names.map((n) => res.get(n));
  for (const [i, c] of columns.entries())
    if (!c.every(Number.isFinite)) return fail('nan', `${names[i]} is not finite at time ${res.time[c.findIndex((v) => !Number.isFinite(v))]} with no error`);
  const energy = columns[names.length - 2],
    work = columns[names.length - 1];
  // the bounds: the energy above the ground at the start (potential m g y_cm is 0 on the ground), the least stiffness
  const M = tree.root.m + tree.links.reduce((s, l) => s + l.m, 0);
  const E = energy[0] + 0.01 * M * G;
  const k = Math.min(...scene.materials.map((m) => m.k)),
    n = scene.materials[0].n;
  const dynamic = tree.law === 'linear' ? Math.sqrt((2 * E) / k) : (((n + 1) * E) / k) ** (1 / (n + 1));
  const depthBound = DEPTH_FACTOR * Math.max((M * G) / k, dynamic);
  let rise = -Infinity,
    kept = -Infinity,
    deepest = 0;
  for (let s = 0; s < res.length; s++) ((rise = Math.max(rise, energy[s] - energy[0])), (kept = Math.max(kept, energy[s] - work[s] - energy[0])));
  // the depth of every sample, and up to 4 samples with contacts pushing for the two forms
  const probe = new ContactRun(scene, compiled.createState());
  const withContact: number[] = [];
  let selfSamples = 0,
    deepestSelf = 0,
    held = 0;
  const plastic = scene.friction === 'elasto-plastic';
  for (let s = 0; s < res.length; s++) {
    const x = Float64Array.from(compiled.stateNames, (_, i) => columns[i][s]);
    probe.apply(res.time[s], x);
    const c = probe.contacts;
    let pushes = false,
      self = false,
      holds = 0;
    for (let q = 0; q < c.count; q++) {
      const fn = probe.normalForces[q],
        material = scene.materials[c.pair[q]];
      if (plastic && fn > 0) holds += (material.mu * fn) ** 2 / (2 * tangentialSpring(material, -c.dist[q])[0]);
      const [a] = scene.pairs[c.pair[q]];
      if (scene.geometries[a].shape.type === 'plane') deepest = Math.max(deepest, -c.dist[q]);
      else ((deepestSelf = Math.max(deepestSelf, -c.dist[q])), (self ||= probe.normalForces[q] > 0));
      pushes ||= probe.normalForces[q] > 0;
    }
    held = Math.max(held, holds);
    if (pushes) withContact.push(s);
    if (self) selfSamples++;
  }
  if (rise > ENERGY_TOL * E + held)
    return fail(
      'energy',
      `energy.total rose by ${rise.toPrecision(3)} J (${(rise / E).toPrecision(3)} of the ${E.toPrecision(3)} J above the ground${held ? `, beyond the ${held.toPrecision(3)} J the bristles can hold` : ''}) with no input`,
    );
  if (kept > WORK_TOL * E)
    return fail(
      'energy',
      `energy.total - contact_work rose by ${kept.toPrecision(3)} J (${(kept / E).toPrecision(3)} of the ${E.toPrecision(3)} J above the ground) with no input`,
    );
  if (Math.max(deepest, deepestSelf) > depthBound)
    return fail(
      'tunnel',
      `a geometry went ${Math.max(deepest, deepestSelf).toPrecision(3)} m into ${deepest >= deepestSelf ? 'the ground' : 'another of the tree'}, beyond ${depthBound.toPrecision(3)} m (${DEPTH_FACTOR} x max(M g / k, the energy's ${dynamic.toPrecision(3)} m))`,
    );
  if (withContact.length === 0) return fail('run-failed', 'the tree never touched the ground in the run');
  const picks = [0, 1, 2, 3].map((i) => withContact[Math.floor((i * (withContact.length - 1)) / 3)]);
  for (const s of new Set(picks)) {
    const values = new Map(compiled.stateNames.map((name, i) => [name, columns[i][s]]));
    const dx = forms.map(({ compiled: c, scene: sc }) => {
      const state = c.createState();
      const x = Float64Array.from(c.stateNames, (name) => values.get(name)!);
      const out = new Float64Array(x.length);
      new ContactRun(sc, state).apply(res.time[s], x);
      state.derivatives(res.time[s], x, out);
      return new Map(c.stateNames.map((name, i) => [name, out[i]]));
    });
    for (const [name, a] of dx[0]) {
      const b = dx[1].get(name)!;
      if (!(Math.abs(a - b) <= AGREE * Math.max(1, Math.abs(a))))
        return fail('disagree', `der(${name}) at time ${res.time[s]} with contacts: torn ${a}, relaxed ${b}`);
    }
  }
  return {
    ...base,
    cls: 'agree',
    note: `deepest ${(deepest / depthBound).toPrecision(2)} of the bound${selfSamples ? `, self-contact in ${selfSamples} samples (deepest ${(deepestSelf / depthBound).toPrecision(2)} of the bound)` : ''}, energy rise ${(Math.max(rise, 0) / E).toExponential(1)} of E (with the work ${(Math.max(kept, 0) / E).toExponential(1)}${plastic ? `; the bristles hold up to ${(held / E).toExponential(1)} of E` : ''}), ${new Set(picks).size} states compared`,
  };
}

// (tree, its scene) => why the scene's pairs are not the rule's, or undefined: the rule enumerated over the tree's geometries by body
function pairsAgainstRule(tree: ContactTree, scene: ContactScene): string | undefined {
  // each geometry: its name in the scene, its body (-1 the ground, 0 the base, k link k), its bits
  const geoms: { name: string; body: number; bits: Bits }[] = [
    { name: 'world.ground', body: -1, bits: GROUND_BITS },
    { name: 'base.collision1', body: 0, bits: tree.root.bits },
  ];
  tree.links.forEach((l, i) => {
    geoms.push({ name: `b${i + 1}.collision1`, body: i + 1, bits: l.bits });
    if (l.tip) geoms.push({ name: `b${i + 1}.tip`, body: i + 1, bits: l.tip.bits });
  });
  const parentBody = (b: number) => (b <= 0 ? -1 : tree.links[b - 1].parent + 1);
  const want = new Set<string>();
  for (const g of geoms)
    for (const h of geoms) {
      if (g.name >= h.name || g.body === h.body) continue;
      if (!(g.bits.contype & h.bits.conaffinity) && !(h.bits.contype & g.bits.conaffinity)) continue;
      // parent and child never, the ground (the world) excepted
      if (g.body >= 0 && h.body >= 0 && (parentBody(g.body) === h.body || parentBody(h.body) === g.body)) continue;
      want.add(`${g.name}|${h.name}`);
    }
  const got = new Set(scene.pairs.map(([i, j]) => [scene.geometries[i].name, scene.geometries[j].name].sort().join('|')));
  const missing = [...want].filter((p) => !got.has(p)),
    extra = [...got].filter((p) => !want.has(p));
  if (!missing.length && !extra.length) return undefined;
  return `the scene's pairs against the rule: missing ${missing.join(', ') || 'none'}; not allowed ${extra.join(', ') || 'none'}`;
}
