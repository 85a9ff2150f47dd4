// src/bench/plot: a log-log plot as a stand-alone SVG document, written by hand
// (no plotting dependency): series of points, their fitted lines, a marked n.
//   x  n on a log2 axis (ticks at powers of two), y on a log10 axis (decades)
import type { LogLogFit, Point } from './fit.ts';

export interface Series {
  label: string;
  color: string;
  points: Point[];
  /** a fitted line, drawn dashed over [from, to] */
  fit?: LogLogFit & { from: number; to: number };
}

export interface LogLogPlot {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** a vertical marker, e.g. the crossover */
  mark?: { n: number; label: string };
}

const W = 760,
  H = 480;
const AREA = { left: 80, right: W - 24, top: 64, bottom: H - 56 };

// (plot) => SVG document
export function logLogSvg(plot: LogLogPlot): string {
  const all = plot.series.flatMap((s) => s.points);
  if (all.length === 0) throw new RangeError('nothing to plot');
  const nLo = 2 ** Math.floor(Math.log2(Math.min(...all.map((p) => p.n))));
  const nHi = 2 ** Math.ceil(Math.log2(Math.max(...all.map((p) => p.n), 2 * nLo)));
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...all.map((p) => p.y))));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...all.map((p) => p.y), 10 * yLo)));
  const x = (n: number) => AREA.left + ((Math.log2(n) - Math.log2(nLo)) / (Math.log2(nHi) - Math.log2(nLo))) * (AREA.right - AREA.left);
  const y = (v: number) => AREA.bottom - ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * (AREA.bottom - AREA.top);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${text(plot.title)}</text>`,
    plot.subtitle ? `<text x="${W / 2}" y="44" text-anchor="middle" fill="#555">${text(plot.subtitle)}</text>` : '',
    ...grid(nLo, nHi, yLo, yHi, x, y),
    `<rect x="${AREA.left}" y="${AREA.top}" width="${AREA.right - AREA.left}" height="${AREA.bottom - AREA.top}" fill="none" stroke="#333"/>`,
    `<text x="${(AREA.left + AREA.right) / 2}" y="${H - 16}" text-anchor="middle">${text(plot.xLabel)}</text>`,
    `<text transform="translate(20 ${(AREA.top + AREA.bottom) / 2}) rotate(-90)" text-anchor="middle">${text(plot.yLabel)}</text>`,
    ...(plot.mark ? mark(plot.mark, x) : []),
    ...plot.series.flatMap((s) => series(s, x, y)),
    ...legend(plot.series),
    '</svg>',
  ];
  return parts.filter(Boolean).join('\n') + '\n';
}

type Scale = (v: number) => number;

/** decade lines (with 2..9 minor lines) on y, powers of two on x, with labels */
function grid(nLo: number, nHi: number, yLo: number, yHi: number, x: Scale, y: Scale): string[] {
  const out: string[] = [];
  for (let n = nLo; n <= nHi; n *= 2) {
    out.push(`<line x1="${f(x(n))}" y1="${AREA.top}" x2="${f(x(n))}" y2="${AREA.bottom}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${f(x(n))}" y="${AREA.bottom + 18}" text-anchor="middle">${n}</text>`);
  }
  for (let d = yLo; d <= yHi * 1.0001; d *= 10) {
    out.push(`<line x1="${AREA.left}" y1="${f(y(d))}" x2="${AREA.right}" y2="${f(y(d))}" stroke="#cfcfcf"/>`);
    out.push(`<text x="${AREA.left - 8}" y="${f(y(d) + 4)}" text-anchor="end">${decade(d)}</text>`);
    if (d < yHi) for (let k = 2; k < 10; k++) out.push(`<line x1="${AREA.left}" y1="${f(y(k * d))}" x2="${AREA.right}" y2="${f(y(k * d))}" stroke="#f1f1f1"/>`);
  }
  return out;
}

function series(s: Series, x: Scale, y: Scale): string[] {
  const pts = [...s.points].sort((a, b) => a.n - b.n);
  const out = [`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.map((p) => `${f(x(p.n))},${f(y(p.y))}`).join(' ')}"/>`];
  for (const p of pts)
    out.push(
      `<circle cx="${f(x(p.n))}" cy="${f(y(p.y))}" r="3.5" fill="${s.color}"><title>${text(`${s.label}: n = ${p.n}, ${p.y.toPrecision(3)}`)}</title></circle>`,
    );
  if (s.fit) {
    const at = (n: number) => Math.exp(s.fit!.intercept + s.fit!.slope * Math.log(n));
    const { from, to } = s.fit;
    out.push(
      `<line x1="${f(x(from))}" y1="${f(y(at(from)))}" x2="${f(x(to))}" y2="${f(y(at(to)))}" stroke="${s.color}" stroke-width="1.5" stroke-dasharray="6 4" opacity="0.8"/>`,
    );
  }
  return out;
}

/** a dashed vertical line at n, labelled on the side with more room */
function mark(m: { n: number; label: string }, x: Scale): string[] {
  const right = x(m.n) < (AREA.left + AREA.right) / 2;
  return [
    `<line x1="${f(x(m.n))}" y1="${AREA.top}" x2="${f(x(m.n))}" y2="${AREA.bottom}" stroke="#7f8c8d" stroke-width="1.5" stroke-dasharray="3 3"/>`,
    `<text x="${f(x(m.n) + (right ? 6 : -6))}" y="${AREA.bottom - 10}" text-anchor="${right ? 'start' : 'end'}" fill="#555">${text(m.label)}</text>`,
  ];
}

function legend(all: Series[]): string[] {
  const x0 = AREA.left + 14,
    y0 = AREA.top + 14,
    width = 12 + 7 * Math.max(...all.map((s) => s.label.length)) + 40;
  const out = [`<rect x="${x0 - 8}" y="${y0 - 10}" width="${width}" height="${all.length * 20 + 6}" fill="white" fill-opacity="0.9" stroke="#bbb"/>`];
  all.forEach((s, i) => {
    const yy = y0 + i * 20;
    out.push(`<line x1="${x0}" y1="${yy}" x2="${x0 + 28}" y2="${yy}" stroke="${s.color}" stroke-width="2"/>`);
    out.push(`<circle cx="${x0 + 14}" cy="${yy}" r="3.5" fill="${s.color}"/>`);
    out.push(`<text x="${x0 + 36}" y="${yy + 4}">${text(s.label)}</text>`);
  });
  return out;
}

/** 0.01, 0.1, 1, 10, ... as plain numbers */
const decade = (d: number) => (d >= 1 ? String(Math.round(d)) : String(Number(d.toPrecision(1))));
const f = (v: number) => v.toFixed(1);
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
