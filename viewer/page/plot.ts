// The signal plot (uPlot): chosen signals against time, a playhead line at
// the playback time, and click-to-seek.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const COLORS = ['#2e86de', '#e67e22', '#27ae60', '#c0392b', '#8e44ad', '#16a085', '#d35400', '#2c3e50'];
const HEIGHT = 220;
/** a run without a mechanism: the plot takes this fraction of the window's height */
const PLOT_ONLY_FRACTION = 0.6;

/** joint coordinates first (what users want to see move), else the first two signals */
export function defaultSignals(names: readonly string[]): string[] {
  const q = names.filter((n) => /\.q$/.test(n)).slice(0, 4);
  return q.length ? q : names.slice(0, 2);
}

export class SignalPlot {
  private chart: uPlot | undefined;
  private readonly playhead = document.createElement('div');
  chosen: string[] = [];
  private hovering = false;
  /** the playhead's time, kept for a chart made after it moved */
  private time = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly onSeek: (t: number) => void,
  ) {
    this.playhead.className = 'playhead';
    new ResizeObserver(() => this.chart?.setSize({ width: this.width(), height: this.height() })).observe(container);
  }

  /** taller when the page shows the plot alone (body.plot-only) */
  private height(): number {
    return document.body.classList.contains('plot-only') ? Math.max(HEIGHT, Math.round(window.innerHeight * PLOT_ONLY_FRACTION)) : HEIGHT;
  }

  private width(): number {
    return Math.max(200, this.container.clientWidth);
  }

  /** plot the chosen signals of a run */
  show(time: ArrayLike<number>, signals: Readonly<Record<string, ArrayLike<number>>>, chosen: string[]): void {
    this.chart?.destroy();
    this.chosen = chosen;
    const series: uPlot.Series[] = [{ label: 'time (s)' }, ...chosen.map((name, i) => ({ label: name, stroke: COLORS[i % COLORS.length], width: 1.5 }))];
    const data = [Array.from(time), ...chosen.map((n) => Array.from(signals[n]))] as uPlot.AlignedData;
    // uPlot sets its scales and cursor after construction (its first commit): only when it is ready
    // does the legend take the playhead's values, else it keeps those at the end of the run
    const hooks: uPlot.Hooks.Arrays = { ready: [() => this.setTime(this.time)] };
    this.chart = new uPlot({ width: this.width(), height: this.height(), series, scales: { x: { time: false } }, legend: { live: true }, hooks }, data, this.container);
    this.chart.over.appendChild(this.playhead);
    this.chart.over.addEventListener('mouseenter', () => (this.hovering = true));
    this.chart.over.addEventListener('mouseleave', () => (this.hovering = false));
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

  /** for tests: the plotted series and their sample counts */
  state(): { series: string[]; points: number[] } {
    const c = this.chart;
    return { series: this.chosen, points: c ? c.data.slice(1).map((d) => d.length) : [] };
  }

  get canvas(): HTMLCanvasElement | undefined {
    return this.chart?.ctx.canvas;
  }
}
