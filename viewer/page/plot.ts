// One signal plot (uPlot): its signals against time, one y axis per unit
// (labelled with it; the first on the left, the next on the right...), a
// playhead line at the playback time, and click-to-seek. The plots of a
// stack share the time axis and the cursor (plots.ts).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const COLORS = ['#2e86de', '#e67e22', '#27ae60', '#c0392b', '#8e44ad', '#16a085', '#d35400', '#2c3e50'];
/** uPlot's cursor sync: hovering one plot of the page shows the same time in the others */
const SYNC = 'kron-time';

export interface PlotSeries {
  name: string;
  /** '' when unknown */
  unit: string;
  values: ArrayLike<number>;
}

/** joint coordinates first (what users want to see move), else the first two signals */
export function defaultSignals(names: readonly string[]): string[] {
  const q = names.filter((n) => /\.q$/.test(n)).slice(0, 4);
  return q.length ? q : names.slice(0, 2);
}

export class SignalPlot {
  private chart: uPlot | undefined;
  private readonly playhead = document.createElement('div');
  readonly element = document.createElement('div');
  chosen: string[] = [];
  /** the y axes' labels: the units of the plotted signals, in order */
  units: string[] = [];
  private hovering = false;
  /** the playhead's time, kept for a chart made after it moved */
  private time = 0;

  constructor(
    private readonly onSeek: (t: number) => void,
    private readonly height: () => number,
  ) {
    this.element.className = 'signal-plot';
    this.playhead.className = 'playhead';
    new ResizeObserver(() => this.resize()).observe(this.element);
  }

  resize(): void {
    this.chart?.setSize({ width: this.width(), height: this.height() });
  }

  private width(): number {
    return Math.max(200, this.element.clientWidth);
  }

  /** plot these series over time; colours continue from `first` (the stack's earlier series) */
  show(time: ArrayLike<number>, series: readonly PlotSeries[], first = 0): void {
    this.chart?.destroy();
    this.chart = undefined;
    this.chosen = series.map((s) => s.name);
    this.units = [];
    if (!series.length) return void this.element.replaceChildren();
    const units = (this.units = [...new Set(series.map((s) => s.unit || '(no unit)'))]);
    const scale = (unit: string) => `y:${unit}`;
    const opts: uPlot.Options = {
      width: this.width(),
      height: this.height(),
      series: [
        { label: 'time (s)' },
        ...series.map((s, i) => ({ label: s.name, scale: scale(s.unit || '(no unit)'), stroke: COLORS[(first + i) % COLORS.length], width: 1.5 })),
      ],
      scales: { x: { time: false }, ...Object.fromEntries(units.map((u) => [scale(u), {}])) },
      axes: [
        { label: 'time (s)', labelSize: 18 },
        ...units.map((u, i) => ({ scale: scale(u), label: u, labelSize: 18, side: i % 2 ? 1 : 3, grid: { show: i === 0 } })),
      ],
      legend: { live: true },
      cursor: { sync: { key: SYNC } },
      // uPlot sets its scales and cursor after construction (its first commit): only when it is ready
      // does the legend take the playhead's values, else it keeps those at the end of the run
      hooks: { ready: [() => this.setTime(this.time)] },
    };
    const data = [Array.from(time), ...series.map((s) => Array.from(s.values))] as uPlot.AlignedData;
    this.element.replaceChildren();
    this.chart = new uPlot(opts, data, this.element);
    this.chart.over.appendChild(this.playhead);
    this.chart.over.addEventListener('mouseenter', () => (this.hovering = true));
    this.chart.over.addEventListener('mouseleave', () => ((this.hovering = false), this.setTime(this.time)));
    this.chart.over.addEventListener('click', (e) => {
      if (this.chart) this.onSeek(this.chart.posToVal(e.offsetX, 'x'));
    });
  }

  /** move the playhead to time t; the legend shows the values there unless the mouse is over the plot */
  setTime(t: number): void {
    this.time = t;
    if (!this.chart) return;
    const x = this.chart.valToPos(t, 'x');
    this.playhead.style.left = `${x}px`;
    if (!this.hovering) this.chart.setCursor({ left: x, top: 0 });
  }

  /** the plotted values (as drawn) and their sample counts */
  get data(): readonly ArrayLike<number | null | undefined>[] {
    return this.chart ? this.chart.data.slice(1) : [];
  }

  destroy(): void {
    this.chart?.destroy();
    this.element.remove();
  }
}
