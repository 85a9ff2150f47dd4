// The stack of signal plots: several plots one above the other with a
// shared time axis; signals chosen go to the current plot (the last one
// added, or the one clicked). Angles in rad are drawn wrapped to (-pi, pi]
// or unwrapped as recorded, at the user's choice; CSV export writes time
// and what is plotted, as drawn.
import { SignalPlot, type PlotSeries } from './plot.ts';
import { isAngle, wrapAngle } from './units.ts';

const HEIGHT = 220;
/** a second plot and more: each this tall (the aside scrolls) */
const STACKED_HEIGHT = 170;
/** a run without a mechanism: the plots take this fraction of the window's height */
const PLOT_ONLY_FRACTION = 0.6;

/** where the plotted values come from: a column per signal and its unit */
export interface SeriesSource {
  time: ArrayLike<number>;
  columns(names: readonly string[]): ArrayLike<number>[];
  unit(name: string): string;
}

export class PlotStack {
  private plots: SignalPlot[] = [];
  private current = 0;
  private source: SeriesSource | undefined;
  private time = 0;
  wrap = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly onSeek: (t: number) => void,
  ) {
    this.plots = [this.make()];
  }

  private height(): number {
    const n = this.plots.length;
    const plotOnly = document.body.classList.contains('plot-only');
    const total = plotOnly ? Math.max(HEIGHT, Math.round(window.innerHeight * PLOT_ONLY_FRACTION)) : HEIGHT;
    return n > 1 ? Math.max(STACKED_HEIGHT, Math.round(total / n)) : total;
  }

  private make(): SignalPlot {
    const plot = new SignalPlot(this.onSeek, () => this.height());
    const index = () => this.plots.indexOf(plot);
    plot.element.addEventListener('pointerdown', () => this.setCurrent(index()));
    const close = Object.assign(document.createElement('button'), { type: 'button', className: 'close-plot', textContent: '×', title: 'remove this plot' });
    close.addEventListener('click', (e) => (e.stopPropagation(), this.remove(index())));
    const box = document.createElement('div');
    box.className = 'plot-box';
    box.append(close, plot.element);
    this.container.append(box);
    return plot;
  }

  private setCurrent(i: number): void {
    this.current = Math.max(0, Math.min(this.plots.length - 1, i));
    this.plots.forEach((p, k) => p.element.parentElement!.classList.toggle('current', k === this.current && this.plots.length > 1));
  }

  /** every plotted signal, plot by plot */
  get chosen(): string[] {
    return this.plots.flatMap((p) => p.chosen);
  }

  /** the signals of each plot */
  get layout(): string[][] {
    return this.plots.map((p) => [...p.chosen]);
  }

  /** a new run (or wrap changed): plot these signals, the first plot alone */
  show(source: SeriesSource, chosen: readonly string[]): void {
    this.source = source;
    // the other plots go without a redraw: their signals may not be the new run's
    for (const gone of this.plots.splice(1)) {
      gone.element.parentElement!.remove();
      gone.destroy();
    }
    this.setCurrent(0);
    this.plots[0].resize();
    this.draw(0, chosen);
  }

  private draw(i: number, names: readonly string[]): void {
    const src = this.source;
    if (!src) return;
    const columns = src.columns(names);
    const series: PlotSeries[] = names.map((name, k) => {
      const unit = src.unit(name);
      const values = this.wrap && isAngle(unit) ? Array.from(columns[k], wrapAngle) : columns[k];
      return { name, unit, values };
    });
    const first = this.plots.slice(0, i).reduce((n, p) => n + p.chosen.length, 0);
    this.plots[i].show(src.time, series, first);
    this.plots[i].setTime(this.time);
  }

  private redraw(): void {
    const layout = this.layout;
    this.plots.forEach((p) => p.resize());
    layout.forEach((names, i) => this.draw(i, names));
  }

  /** add a signal to the current plot */
  add(name: string): void {
    if (this.chosen.includes(name)) return;
    this.draw(this.current, [...this.plots[this.current].chosen, name]);
  }

  /** take a signal off whichever plot has it */
  drop(name: string): void {
    const i = this.plots.findIndex((p) => p.chosen.includes(name));
    if (i >= 0)
      this.draw(
        i,
        this.plots[i].chosen.filter((n) => n !== name),
      );
  }

  /** a new empty plot below the others; it becomes the current one */
  addPlot(): void {
    this.plots.push(this.make());
    this.setCurrent(this.plots.length - 1);
    this.redraw();
  }

  private remove(i: number): void {
    if (this.plots.length <= 1) return void this.draw(0, []);
    const [gone] = this.plots.splice(i, 1);
    gone.element.parentElement!.remove();
    gone.destroy();
    this.setCurrent(Math.min(this.current, this.plots.length - 1));
    this.redraw();
  }

  setWrap(wrap: boolean): void {
    this.wrap = wrap;
    this.redraw();
  }

  setTime(t: number): void {
    this.time = t;
    for (const p of this.plots) p.setTime(t);
  }

  /** time and every plotted signal as drawn (angles wrapped when they are), one row per sample */
  csv(): string {
    const names = this.chosen,
      time = this.source?.time ?? [];
    const columns = this.plots.flatMap((p) => p.data);
    const rows = [['time', ...names].join(',')];
    for (let k = 0; k < time.length; k++) rows.push([time[k], ...columns.map((c) => c[k])].join(','));
    return rows.join('\n') + '\n';
  }

  /** a plotted signal's values as drawn (for tests and the console) */
  values(name: string): number[] | undefined {
    for (const p of this.plots) {
      const i = p.chosen.indexOf(name);
      if (i >= 0) return Array.from(p.data[i], Number);
    }
    return undefined;
  }

  /** for tests: the plotted series, their sample counts, and the signals of each plot */
  state(): { series: string[]; points: number[]; plots: string[][]; axes: string[][]; wrap: boolean } {
    const axes = this.plots.map((p) => [...p.units]);
    return { series: this.chosen, points: this.plots.flatMap((p) => p.data.map((d) => d.length)), plots: this.layout, axes, wrap: this.wrap };
  }
}
