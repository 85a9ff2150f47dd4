// src/bench/ratio-plot: horizontal bars of ratios on a log axis, grouped by
// row, as a stand-alone SVG document written by hand (as plot.ts): the run
// overhead benchmark's whole-run time over its evaluations' time, with the
// targets drawn as dashed lines.

export interface RatioBar {
  label: string;
  color: string;
  /** the ratio shown (> 0) */
  value: number;
}

export interface RatioPlot {
  title: string;
  subtitle?: string;
  xLabel: string;
  /** one group of bars per row (a robot) */
  groups: { label: string; bars: RatioBar[] }[];
  /** dashed vertical lines at these ratios */
  targets: { value: number; label: string }[];
}

const W = 760,
  BAR = 16,
  GAP = 14,
  LEFT = 130,
  RIGHT = W - 60,
  TOP = 64;

// (plot) => SVG document
export function ratioSvg(plot: RatioPlot): string {
  const values = plot.groups.flatMap((g) => g.bars.map((b) => b.value));
  if (values.length === 0) throw new RangeError('nothing to plot');
  const lo = Math.min(1, 10 ** Math.floor(Math.log10(Math.min(...values))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values, 10 * lo)));
  const x = (v: number) => LEFT + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (RIGHT - LEFT);
  const bottom = TOP + plot.groups.reduce((h, g) => h + g.bars.length * BAR + GAP, 0);
  const H = bottom + 56 + 20 * legendOf(plot).length;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${text(plot.title)}</text>`,
    plot.subtitle ? `<text x="${W / 2}" y="44" text-anchor="middle" fill="#555">${text(plot.subtitle)}</text>` : '',
  ];
  // a line at 1, 2, 5 times each power of ten
  for (let d = lo; d < hi * 1.0001; d *= 10) {
    for (const k of [1, 2, 5]) {
      if (k * d > hi * 1.0001) break;
      out.push(`<line x1="${f(x(k * d))}" y1="${TOP}" x2="${f(x(k * d))}" y2="${bottom}" stroke="${k === 1 ? '#cfcfcf' : '#eeeeee'}"/>`);
      out.push(`<text x="${f(x(k * d))}" y="${bottom + 18}" text-anchor="middle">${Number((k * d).toPrecision(1))}</text>`);
    }
  }
  let y = TOP;
  for (const g of plot.groups) {
    out.push(`<text x="${LEFT - 8}" y="${f(y + (g.bars.length * BAR) / 2 + 4)}" text-anchor="end" font-weight="bold">${text(g.label)}</text>`);
    for (const b of g.bars) {
      out.push(
        `<rect x="${LEFT}" y="${y + 1}" width="${f(Math.max(1, x(b.value) - LEFT))}" height="${BAR - 2}" fill="${b.color}"><title>${text(`${g.label}, ${b.label}: ${b.value.toFixed(2)}`)}</title></rect>`,
      );
      out.push(`<text x="${f(x(b.value) + 4)}" y="${y + BAR - 4}">${b.value.toFixed(2)}×</text>`);
      y += BAR;
    }
    y += GAP;
  }
  // labels of neighbouring targets on alternate sides of their lines, so that close ones do not overlap
  plot.targets.forEach((t, i) => {
    out.push(`<line x1="${f(x(t.value))}" y1="${TOP - 6}" x2="${f(x(t.value))}" y2="${bottom}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="5 4"/>`);
    out.push(`<text x="${f(x(t.value) + (i % 2 ? 4 : -4))}" y="${TOP - 8}" text-anchor="${i % 2 ? 'start' : 'end'}" fill="#c0392b">${text(t.label)}</text>`);
  });
  out.push(`<rect x="${LEFT}" y="${TOP}" width="${RIGHT - LEFT}" height="${bottom - TOP}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${(LEFT + RIGHT) / 2}" y="${bottom + 38}" text-anchor="middle">${text(plot.xLabel)}</text>`);
  legendOf(plot).forEach((b, i) => {
    const yy = bottom + 56 + i * 20;
    out.push(`<rect x="${LEFT}" y="${yy - 10}" width="24" height="12" fill="${b.color}"/>`);
    out.push(`<text x="${LEFT + 32}" y="${yy}">${text(b.label)}</text>`);
  });
  out.push('</svg>');
  return out.filter(Boolean).join('\n') + '\n';
}

/** one legend entry per bar label, in the order of the first group that has it */
function legendOf(plot: RatioPlot): RatioBar[] {
  const seen = new Map<string, RatioBar>();
  for (const b of plot.groups.flatMap((g) => g.bars)) if (!seen.has(b.label)) seen.set(b.label, b);
  return [...seen.values()];
}

const f = (v: number) => v.toFixed(1);
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
