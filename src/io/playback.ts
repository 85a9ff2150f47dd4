// (model, compiled model, simulate options) => the simulation result plus,
// for a model with frames, the playback fields (scene, poses, compile
// report) a JSON result carries for the viewer. The pose signals are
// recorded in the same run and kept out of the result's signals. A run with
// contact and no signals asked for also records every pair's contact
// signals (contact.*): the viewer draws its force arrows from p and f; and
// the energy signals, which the viewer cannot replay without the contact.
import type { CompiledModel } from '../codegen/compiled.ts';
import type { ModelState } from '../codegen/state.ts';
import { Frame } from '../library/multibody/index.ts';
import type { Component, Model } from '../model/index.ts';
import { DEFAULT_STEP, type IntegrationStats, type SimulateOptions, simulate } from '../sim/simulate.ts';
import { SimulationResult } from '../sim/result.ts';
import { packPoses, poseSignalNames } from './poses.ts';
import { describeScene } from './scene.ts';
import type { Integration, PlaybackFields, Vec3Tuple } from './types.ts';

/** a run and, for a mechanism, what the viewer needs to draw it */
export interface PlaybackRecording {
  /** the run's samples, as simulate() returns them (the poses kept out) */
  result: SimulationResult;
  /** undefined for models without frames (nothing to draw) */
  playback: PlaybackFields | undefined;
}

const hasFrames = (c: Component): boolean => c instanceof Frame || c.children.some(hasFrames);

function gravityOf(state: ModelState): Vec3Tuple {
  const g = [1, 2, 3].map((i) => `world.g[${i}]`);
  return g.every((n) => state.hasSignal(n)) ? (g.map((n) => state.signal(n)) as Vec3Tuple) : [0, -9.80665, 0];
}

/** simulate() and, for a mechanism, every frame's pose at every sample (the viewer's JSON run) */
export function simulatePlayback(model: Model, compiled: CompiledModel, options: SimulateOptions): PlaybackRecording {
  if (!hasFrames(model)) return { result: simulate(compiled, options), playback: undefined };
  // the scene (body sizes, gravity) from the parameter values of this run
  const { parameters, start, ...rest } = options;
  const state = compiled.createState({ parameters, start });
  const scene = describeScene(model, (n) => state.signal(n), gravityOf(state));
  // the states by default; with contact (and no --signals) the pairs' forces too, so that the viewer can draw them, and
  // the energy: its replay in the page has no contact forces, so the run must carry it
  const names = options.signals ?? (options.contact ? [...compiled.stateNames, ...energyOf(state, compiled), 'contact.*'] : compiled.stateNames);
  const poseNames = poseSignalNames(scene.frames, (n) => state.hasSignal(n));
  const run = simulate(state, { ...rest, signals: [...names, ...poseNames] });
  // the run's own names: patterns such as contact.* come back spelt out (contact/signals.ts)
  const asked = run.names.length - poseNames.length;
  const result = Object.assign(new SimulationResult(run.time, run.names.slice(0, asked), run.columns.slice(0, asked)), {
    integration: run.integration,
    events: run.events,
  });
  const poses = packPoses(run.columns.slice(asked), run.length);
  const { step = DEFAULT_STEP, rtol, atol } = options;
  // the integrator that integrated: auto's rk4, or radau once it switched (then also where and why)
  const integrator = run.integration!.integrator;
  const integration: Integration = { integrator, step, ...(integrator !== 'rk4' && { rtol, atol }), ...statsOf(run.integration) };
  return { result, playback: { scene, poses, report: compiled.report, integration } };
}

/** the energy signals the model has that are not states (energy.contact_work is one) */
const energyOf = (state: ModelState, compiled: CompiledModel): string[] =>
  ['energy.kinetic', 'energy.potential', 'energy.total'].filter((n) => state.hasSignal(n) && !compiled.stateNames.includes(n));

/** the integrator's counts for the result file (what it cost), without its name (the file has it already) */
function statsOf(stats: IntegrationStats | undefined): Partial<Integration> {
  if (!stats) return {};
  const { steps, rejected, evaluations, jacobians, decompositions, switched } = stats;
  return { steps, rejected, evaluations, ...(jacobians && { jacobians, decompositions }), ...(switched && { switched }) };
}
