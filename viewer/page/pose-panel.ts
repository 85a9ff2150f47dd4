// The posing panel: a slider per joint coordinate while playback is paused;
// moving one poses the mechanism with its loops closed (pose.ts). Playing,
// seeking or stepping shows the recorded motion again, and the sliders
// follow it. The compiled model is the live run's, or, for a served run,
// the model compiled here: a URDF robot from its file, or a mechanism of
// mechanisms/ of the run's name, used only when it reproduces the run's
// recorded pose (same parameters).
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { POSE_STRIDE, type PlaybackRun } from '../../src/io/types.ts';
import { sampleBefore } from '../../src/io/poses.ts';
import { compileLive, liveMechanisms } from './live.ts';
import { Poser, poseFailure } from './pose.ts';

/** a recorded pose and the page's agree to this (m): the run used the module's default parameters */
const SAME_POSE = 1e-4;

const wrap = (a: number) => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));

/** the states the run recorded, at sample k (a state not recorded keeps the poser's value) */
function recordedStates(run: PlaybackRun, poser: Poser, k: number): Record<string, number> {
  return Object.fromEntries(poser.states.filter((n) => run.signals[n]).map((n) => [n, run.signals[n][k]]));
}

export interface PoseState {
  available: boolean;
  posed: boolean;
  coordinates: Record<string, number>;
  note: string;
}

export class PosePanel {
  private run: PlaybackRun | undefined;
  private compiled: CompiledModel | undefined;
  /** how to compile the run's model here, when it has none yet */
  private source: (() => CompiledModel) | undefined;
  private poser: Poser | undefined;
  private tried = false;
  private posed = false;
  private values: Record<string, number> = {};
  private sliders = new Map<string, HTMLInputElement>();
  /** the last posed frames' positions, [x, y, z] per pose set (for tests: loops closed) */
  lastPose: number[][] = [];

  constructor(
    private readonly panel: HTMLDetailsElement,
    private readonly box: HTMLElement,
    private readonly noteEl: HTMLElement,
    private readonly onPose: (pose: Float32Array) => void,
  ) {
    panel.addEventListener('toggle', () => panel.open && this.prepare());
  }

  /** a new run; its compiled model, or how to compile it (default: the mechanism of mechanisms/ of its name) */
  show(run: PlaybackRun, model?: CompiledModel | (() => CompiledModel)): void {
    const [compiled, source] = typeof model === 'function' ? [undefined, model] : [model, undefined];
    Object.assign(this, { run, compiled, source, poser: undefined, tried: false, posed: false, values: {}, lastPose: [] });
    this.sliders.clear();
    this.box.replaceChildren();
    this.note('');
    if (this.panel.open) this.prepare();
  }

  private note(text: string): void {
    this.noteEl.textContent = text;
  }

  /** compile (once per run) and build the sliders */
  prepare(): boolean {
    if (this.poser) return true;
    if (this.tried || !this.run?.scene || !this.run.poses) return false;
    this.tried = true;
    const { run } = this;
    const scene = run.scene!;
    try {
      if (!this.compiled) {
        if (!this.source && !liveMechanisms().includes(run.model)) {
          this.note(`posing needs the model: ${run.model} is not a mechanism of mechanisms/ (kron view model.ts runs a model of your own live)`);
          return false;
        }
        this.compiled = (this.source ?? (() => compileLive(run.model, 'torn').compiled))();
      }
      const poser = new Poser(this.compiled, scene);
      const k = sampleBefore(run.time, 0);
      const pose = poser.pose(recordedStates(run, poser, k));
      const data = run.poses!.data;
      let far = 0;
      for (let i = 0; i < pose.length; i += POSE_STRIDE) for (let c = 0; c < 3; c++) far = Math.max(far, Math.abs(pose[i + c] - data[i + c]));
      if (!(far < SAME_POSE)) {
        this.note(`posing is off: ${run.model} compiled here does not reproduce this run's pose (${far.toExponential(1)} m apart)`);
        return false;
      }
      this.poser = poser;
    } catch (e) {
      this.note(`posing is off: ${poseFailure(e)}`);
      return false;
    }
    this.build();
    this.note(this.poser.coordinates.length ? 'drag while paused; play returns to the recorded motion' : 'no joint coordinates to pose');
    return true;
  }

  private build(): void {
    const types = new Map((this.run!.scene!.joints).map((j) => [j.name, j.type]));
    this.box.replaceChildren(...this.poser!.coordinates.map((c) => {
      const label = document.createElement('label');
      const angle = types.get(c.joint) !== 'prismatic';
      const slider = Object.assign(document.createElement('input'), { type: 'range', step: 'any', min: angle ? String(-Math.PI) : '-1', max: angle ? String(Math.PI) : '1' });
      slider.dataset.coordinate = c.name;
      slider.dataset.angle = String(angle);
      const out = document.createElement('output');
      slider.addEventListener('input', () => this.poseTo({ [c.name]: Number(slider.value) }));
      label.append(Object.assign(document.createElement('span'), { textContent: c.name, title: c.name }), slider, out);
      this.sliders.set(c.name, slider);
      return label;
    }));
  }

  private showValues(): void {
    for (const [name, slider] of this.sliders) {
      const v = this.values[name] ?? 0;
      if (slider.dataset.angle !== 'true') {
        // a length: the slider spans the value ±1 m, or ±2|v|
        const half = Math.max(1, 2 * Math.abs(v));
        if (v < Number(slider.min) || v > Number(slider.max)) Object.assign(slider, { min: String(v - half), max: String(v + half) });
      }
      slider.value = String(slider.dataset.angle === 'true' ? wrap(v) : v);
      (slider.nextElementSibling as HTMLOutputElement).value = v.toFixed(3);
    }
  }

  /** the recorded motion is shown at time t: the sliders follow it, and they are live only while paused */
  follow(t: number, playing: boolean): void {
    this.posed = false;
    if (!this.run || !this.poser) return;
    this.values = { ...this.values, ...recordedStates(this.run, this.poser, sampleBefore(this.run.time, t)) };
    for (const s of this.sliders.values()) s.disabled = playing;
    this.showValues();
  }

  /** pose the mechanism with these coordinates changed (the others as they are); false when posing is off or the loop does not close */
  poseTo(changes: Record<string, number>): boolean {
    if (!this.prepare()) return false;
    const next = { ...this.values, ...changes };
    try {
      const pose = this.poser!.pose(next);
      this.values = next;
      this.posed = true;
      this.lastPose = [];
      for (let i = 0; i < pose.length; i += POSE_STRIDE) this.lastPose.push([pose[i], pose[i + 1], pose[i + 2]]);
      this.onPose(pose);
      this.note('drag while paused; play returns to the recorded motion');
    } catch (e) {
      this.note(`cannot pose there: ${poseFailure(e)}`);
    }
    this.showValues();
    return this.posed;
  }

  state(): PoseState {
    const coordinates = Object.fromEntries((this.poser?.coordinates ?? []).map((c) => [c.name, this.values[c.name]]));
    return { available: !!this.poser, posed: this.posed, coordinates, note: this.noteEl.textContent ?? '' };
  }
}
