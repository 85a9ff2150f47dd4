// The posing panel: a slider per joint coordinate while playback is paused;
// moving one poses the mechanism with its loops closed (pose.ts). Playing,
// seeking or stepping shows the recorded motion again, and the sliders
// follow it. The compiled model is the live run's, or, for a served run,
// the model compiled here: a URDF robot from its file, or a mechanism of
// mechanisms/ of the run's name, used only when it reproduces the run's
// recorded pose (same parameters). A free or ball joint is posed by roll,
// pitch and yaw sliders that write its unit quaternion Q (rotation.ts), a
// free joint's position by x, y and z sliders of its r.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { POSE_STRIDE, type PlaybackRun } from '../../src/io/types.ts';
import { sampleBefore } from '../../src/io/poses.ts';
import { compileLive, liveMechanisms } from './live.ts';
import { Poser, poseFailure, type Orientation } from './pose.ts';
import { type Quaternion, type Rpy, quaternionOfRpy, rpyOfQuaternion, unitOrUndefined } from './rotation.ts';

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
  /** the joint coordinates posed or recorded, by state name (a free or ball joint's Q[1..4] among them) */
  coordinates: Record<string, number>;
  /** each free or ball joint's roll, pitch, yaw as its sliders show them */
  angles: Record<string, Rpy>;
  note: string;
}

const RPY = ['roll', 'pitch', 'yaw'] as const;
/** roll and yaw turn all the way; pitch is ±π/2 (beyond it, the same orientation has other roll and yaw) */
const RPY_RANGE = [Math.PI, Math.PI / 2, Math.PI];

/** the orientation's quaternion in values (the identity when missing) */
const quaternionIn = (values: Record<string, number>, o: Orientation) => o.states.map((n, k) => values[n] ?? +(k === 0)) as Quaternion;

export class PosePanel {
  private run: PlaybackRun | undefined;
  private compiled: CompiledModel | undefined;
  /** how to compile the run's model here, when it has none yet */
  private source: (() => CompiledModel) | undefined;
  private poser: Poser | undefined;
  private tried = false;
  private posed = false;
  private values: Record<string, number> = {};
  /** the recorded time shown, and whether it plays: the sliders start there */
  private shown = { t: 0, playing: false };
  private sliders = new Map<string, HTMLInputElement>();
  /** each free or ball joint's roll, pitch, yaw: kept as dragged (near pitch ±π/2 another triple gives the same Q) */
  private angles = new Map<string, Rpy>();
  private angleSliders = new Map<string, HTMLInputElement[]>();
  /** the last posed frames, [x, y, z, qx, qy, qz, qw] per pose set as Poses (for tests: loops closed, orientations) */
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
    this.angles.clear();
    this.angleSliders.clear();
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
    this.follow(this.shown.t, this.shown.playing);
    this.note(
      this.poser.coordinates.length + this.poser.orientations.length
        ? 'drag while paused; play returns to the recorded motion'
        : 'no joint coordinates to pose',
    );
    return true;
  }

  private build(): void {
    const scalar = this.poser!.coordinates.map((c) => {
      const angle = !c.length;
      const slider = rangeInput(angle ? Math.PI : 1);
      slider.dataset.coordinate = c.name;
      slider.dataset.angle = String(angle);
      slider.addEventListener('input', () => this.poseTo({ [c.name]: Number(slider.value) }));
      this.sliders.set(c.name, slider);
      return labelled(c.name, c.name, slider);
    });
    const angular = this.poser!.orientations.flatMap((o) => {
      const sliders = RPY.map((_, k) => {
        const slider = rangeInput(RPY_RANGE[k]);
        Object.assign(slider.dataset, { orientation: o.joint, rpy: RPY[k] });
        slider.addEventListener('input', () => this.poseAngles(o, k, Number(slider.value)));
        return slider;
      });
      this.angleSliders.set(o.joint, sliders);
      return sliders.map((slider, k) => labelled(`${o.joint} ${RPY[k]}`, `${o.joint}.Q by ${RPY[k]}: R = Rz(yaw) Ry(pitch) Rx(roll)`, slider));
    });
    this.box.replaceChildren(...scalar, ...angular);
  }

  /** one of a free or ball joint's roll, pitch, yaw moved: its Q from the three angles */
  private poseAngles(o: Orientation, k: number, value: number): void {
    const rpy = [...(this.angles.get(o.joint) ?? [0, 0, 0])] as Rpy;
    rpy[k] = value;
    const Q = quaternionOfRpy(rpy);
    this.poseTo(Object.fromEntries(o.states.map((n, i) => [n, Q[i]])), { [o.joint]: rpy });
  }

  /** the angles of the orientations from their Q: all, or those these changes touch (the dragged ones as dragged) */
  private anglesFromValues(changes?: Record<string, number>, dragged: Record<string, Rpy> = {}): void {
    for (const o of this.poser?.orientations ?? []) {
      if (dragged[o.joint]) this.angles.set(o.joint, dragged[o.joint]);
      else if (!changes || o.states.some((n) => n in changes)) this.angles.set(o.joint, rpyOfQuaternion(quaternionIn(this.values, o)));
    }
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
    for (const [joint, sliders] of this.angleSliders) {
      const rpy = this.angles.get(joint) ?? [0, 0, 0];
      sliders.forEach((slider, k) => {
        slider.value = String(rpy[k]);
        (slider.nextElementSibling as HTMLOutputElement).value = rpy[k].toFixed(3);
      });
    }
  }

  /** the recorded motion is shown at time t: the sliders follow it, and they are live only while paused */
  follow(t: number, playing: boolean): void {
    this.posed = false;
    this.shown = { t, playing };
    if (!this.run || !this.poser) return;
    this.values = { ...this.values, ...recordedStates(this.run, this.poser, sampleBefore(this.run.time, t)) };
    this.anglesFromValues();
    for (const s of [...this.sliders.values(), ...[...this.angleSliders.values()].flat()]) s.disabled = playing;
    this.showValues();
  }

  /**
   * pose the mechanism with these coordinates changed (the others as they
   * are; a Q is normalised); false when posing is off, a Q has no length or
   * the loop does not close. dragged: angles as the sliders show them.
   */
  poseTo(changes: Record<string, number>, dragged: Record<string, Rpy> = {}): boolean {
    if (!this.prepare()) return false;
    const next = { ...this.values, ...changes };
    // this pose's success (posed stays true after a failure: the last pose is still shown)
    let done = false;
    try {
      const pose = this.poser!.pose(next);
      for (const o of this.poser!.orientations) {
        const unit = unitOrUndefined(quaternionIn(next, o));
        if (unit) o.states.forEach((n, i) => (next[n] = unit[i]));
      }
      this.values = next;
      this.anglesFromValues(changes, dragged);
      this.posed = true;
      this.lastPose = [];
      for (let i = 0; i < pose.length; i += POSE_STRIDE) this.lastPose.push([...pose.subarray(i, i + POSE_STRIDE)]);
      this.onPose(pose);
      done = true;
      this.note('drag while paused; play returns to the recorded motion');
    } catch (e) {
      this.note(`cannot pose there: ${poseFailure(e)}`);
    }
    this.showValues();
    return done;
  }

  state(): PoseState {
    const names = [...(this.poser?.coordinates ?? []).map((c) => c.name), ...(this.poser?.orientations ?? []).flatMap((o) => o.states)];
    const coordinates = Object.fromEntries(names.map((n) => [n, this.values[n]]));
    return { available: !!this.poser, posed: this.posed, coordinates, angles: Object.fromEntries(this.angles), note: this.noteEl.textContent ?? '' };
  }
}

/** a slider from -half to half (a length's range follows its value: showValues) */
function rangeInput(half: number): HTMLInputElement {
  return Object.assign(document.createElement('input'), { type: 'range', step: 'any', min: String(-half), max: String(half) });
}

/** a row of the panel: the name, the slider, its value */
function labelled(text: string, title: string, slider: HTMLInputElement): HTMLLabelElement {
  const label = document.createElement('label');
  label.append(Object.assign(document.createElement('span'), { textContent: text, title }), slider, document.createElement('output'));
  return label;
}
