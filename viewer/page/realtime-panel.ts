// The "run live" panel: the compiled model integrated in real time in the page
// (viewer/page/realtime.ts), one slider per input (a joint's tau...) that
// takes effect at the next step. The recorded run stays loaded: play, step
// or seek stop the live run and show the recording again.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { RealTimeRun } from './realtime.ts';

/** sliders span ±this (an input's unit: N m for a torque, N for a force) */
const INPUT_RANGE = 10;

export interface LiveEnergy {
  kinetic: number;
  potential: number;
  total: number;
}

export interface RealTimeState {
  available: boolean;
  running: boolean;
  /** simulated time of the live run (s) */
  time: number;
  inputs: Record<string, number>;
  states: Record<string, number>;
  note: string;
}

export class RealTimePanel {
  private source: (() => CompiledModel) | undefined;
  private run: PlaybackRun | undefined;
  private live: RealTimeRun | undefined;
  private values: Record<string, number> = {};
  /** the live run holds still at this simulated time (tests compare the state there) */
  private stopAt = Infinity;
  running = false;

  constructor(
    private readonly toggle: HTMLButtonElement,
    private readonly sliders: HTMLElement,
    private readonly noteEl: HTMLElement,
    /** a pose to draw (7 numbers per frame), the live run's time, its energy now (when the model has energy signals) */
    private readonly onPose: (pose: Float32Array, time: number, energy?: LiveEnergy) => void,
    /** the live run starts: playback pauses */
    private readonly onStart: () => void,
  ) {
    toggle.addEventListener('click', () => (this.running ? this.stop() : this.start()));
  }

  /** a new run: its model (compiled when the panel first needs it), the live run stopped */
  show(run: PlaybackRun, source: (() => CompiledModel) | undefined): void {
    this.stop();
    Object.assign(this, { run, source, live: undefined, values: {} });
    this.sliders.replaceChildren();
    this.note(source ? 'integrates the model in real time; the sliders set its inputs at once' : 'off: the page has no model of this run');
    this.toggle.disabled = !source;
    if (source) this.makeSliders();
  }

  private note(text: string): void {
    this.noteEl.textContent = text;
  }

  private makeSliders(): void {
    let inputs: readonly string[];
    try {
      inputs = this.source!().generated.layout.inputs;
    } catch (e) {
      this.note(`off: ${e instanceof Error ? e.message : String(e)}`);
      this.toggle.disabled = true;
      return;
    }
    if (!inputs.length) this.note('this model has no inputs (a controller or the model defines them): run live plays it freely');
    for (const name of inputs) {
      this.values[name] = 0;
      const label = document.createElement('label');
      const slider = Object.assign(document.createElement('input'), {
        type: 'range',
        min: String(-INPUT_RANGE),
        max: String(INPUT_RANGE),
        step: '0.01',
        value: '0',
      });
      slider.dataset.input = name;
      const out = document.createElement('output');
      out.textContent = '0';
      slider.addEventListener('input', () => {
        this.setInput(name, Number(slider.value));
        out.textContent = Number(slider.value).toFixed(2);
      });
      label.append(Object.assign(document.createElement('span'), { textContent: name, title: name }), slider, out);
      this.sliders.append(label);
    }
  }

  setInput(name: string, value: number): void {
    this.values[name] = value;
    this.live?.setInput(name, value);
  }

  /** a new live run from the model's start state, with the sliders' inputs; `until`: hold still there */
  start(until = Infinity): void {
    if (!this.source) return;
    try {
      this.live = new RealTimeRun(this.source(), this.run?.scene, this.values);
    } catch (e) {
      this.note(`cannot run live: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.stopAt = until;
    this.running = true;
    this.toggle.textContent = 'stop';
    this.onStart();
    this.draw();
  }

  /** the live run goes on from where it is (held still or stopped) to `until`, its state and inputs kept */
  resume(until = Infinity): void {
    if (!this.live) return this.start(until);
    this.stopAt = until;
    this.running = true;
    this.toggle.textContent = 'stop';
  }

  stop(): void {
    this.running = false;
    this.toggle.textContent = 'run live';
  }

  /** one animation frame: integrate the wall-clock seconds (times the speed; a slow frame, as of a background tab, counts 0.1 s at most) and draw */
  frame(wallSeconds: number, speed: number): void {
    if (!this.running || !this.live) return;
    try {
      this.live.advanceTo(Math.min(this.stopAt, this.live.time + Math.min(0.1, wallSeconds) * speed));
    } catch (e) {
      this.note(e instanceof Error ? e.message : String(e));
      this.stop();
    }
    this.draw();
  }

  private draw(): void {
    if (!this.live) return;
    const pose = this.live.pose();
    const [kinetic, potential, total] = ['energy.kinetic', 'energy.potential', 'energy.total'].map((n) => this.live!.read(n));
    const energy = kinetic !== undefined && potential !== undefined && total !== undefined ? { kinetic, potential, total } : undefined;
    this.onPose(pose, this.live.time, energy);
  }

  state(): RealTimeState {
    return {
      available: !!this.source,
      running: this.running,
      time: this.live?.time ?? 0,
      inputs: { ...this.values },
      states: this.live?.states() ?? {},
      note: this.noteEl.textContent ?? '',
    };
  }
}
