// The signals of the loaded run: the recorded ones as they are, every other
// variable of the model by replaying the run (replay.ts) once the page has
// the model — the live run's, or compiled here for a URDF robot or a
// mechanism of mechanisms/ — and their units (units.ts).
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { KronError } from '../../src/errors.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { sampleBefore } from '../../src/io/poses.ts';
import type { SeriesSource } from './plots.ts';
import { SignalReplay } from './replay.ts';
import { unitOf } from './units.ts';

export class RunSignals implements SeriesSource {
  private replay: SignalReplay | string | undefined;

  /** model: the run's compiled model, or how to compile it here (undefined: only the recorded signals) */
  constructor(
    readonly run: PlaybackRun,
    private readonly model: (() => CompiledModel) | undefined,
    private readonly noModel: string,
  ) {}

  get time(): ArrayLike<number> {
    return this.run.time;
  }

  get recorded(): string[] {
    return Object.keys(this.run.signals);
  }

  unit(name: string): string {
    return unitOf(name, this.run.scene);
  }

  /** compile (once) and check the replay; a string says why every variable is not available */
  every(): SignalReplay | string {
    if (this.replay === undefined) {
      try {
        this.replay = this.model ? SignalReplay.of(this.model(), this.run) : this.noModel;
      } catch (e) {
        if (!(e instanceof KronError)) throw e;
        this.replay = `the model does not compile here: ${e.message}`;
      }
    }
    return this.replay;
  }

  /** every signal's name when the model is already here and replays the run (this never compiles); else the recorded ones */
  known(): string[] {
    return this.replay && typeof this.replay !== 'string' ? this.replay.names() : this.recorded;
  }

  /** is the signal available without compiling (recorded), or with the replay */
  has(name: string): boolean {
    if (this.run.signals[name]) return true;
    const every = this.every();
    return typeof every !== 'string' && every.compiled.hasSignal(name);
  }

  columns(names: readonly string[]): ArrayLike<number>[] {
    const replayed = names.filter((n) => !this.run.signals[n]);
    const every = replayed.length ? this.every() : undefined;
    if (typeof every === 'string') throw new Error(`cannot compute ${replayed[0]}: ${every}`);
    const computed = every ? every.columnsOf(replayed) : [];
    return names.map((n) => this.run.signals[n] ?? computed[replayed.indexOf(n)]);
  }

  /** the signals' values at the sample at or before time t (new ones computed in one pass) */
  valuesAt(names: readonly string[], t: number): number[] {
    const k = sampleBefore(this.run.time, t);
    return this.columns(names).map((c) => c[k]);
  }
}
