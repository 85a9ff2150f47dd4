// (model, compiled model, simulate options) => the simulation result plus,
// for a model with frames, the playback fields (scene, poses, compile
// report) a JSON result carries for the viewer. The pose signals are
// recorded in the same run and kept out of the result's signals.
import type { CompiledModel } from '../codegen/compiled.ts';
import { Frame } from '../library/multibody/index.ts';
import type { Component, Model } from '../model/index.ts';
import { type SimulateOptions, simulate } from '../sim/simulate.ts';
import { SimulationResult } from '../sim/result.ts';
import { packPoses, poseSignalNames } from './poses.ts';
import { describeScene } from './scene.ts';
import type { PlaybackFields, Vec3Tuple } from './types.ts';

export interface PlaybackRecording {
  result: SimulationResult;
  /** undefined for models without frames (nothing to draw) */
  playback: PlaybackFields | undefined;
}

const hasFrames = (c: Component): boolean => c instanceof Frame || c.children.some(hasFrames);

function gravityOf(compiled: CompiledModel): Vec3Tuple {
  const g = [1, 2, 3].map((i) => `world.g[${i}]`);
  return g.every((n) => compiled.hasSignal(n)) ? (g.map((n) => compiled.signal(n)) as Vec3Tuple) : [0, -9.80665, 0];
}

export function simulatePlayback(model: Model, compiled: CompiledModel, options: SimulateOptions): PlaybackRecording {
  if (!hasFrames(model)) return { result: simulate(compiled, options), playback: undefined };
  const scene = describeScene(model, (n) => compiled.signal(n), gravityOf(compiled));
  const names = options.signals ?? compiled.stateNames;
  const poseNames = poseSignalNames(scene.frames, (n) => compiled.hasSignal(n));
  const run = simulate(compiled, { ...options, signals: [...names, ...poseNames] });
  const result = new SimulationResult(run.time, names, run.columns.slice(0, names.length));
  const poses = packPoses(run.columns.slice(names.length), run.length);
  return { result, playback: { scene, poses, report: compiled.report } };
}
