// The hand-written log-log SVG (src/bench/plot.ts): points land on log axes.
import { describe, expect, it } from 'vitest';
import { logLogSvg } from '../../src/bench/plot.ts';

const circles = (svg: string, color: string) =>
  [...svg.matchAll(new RegExp(`<circle cx="([\\d.]+)" cy="([\\d.]+)" r="3.5" fill="${color}"><title>`, 'g'))].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
  }));

describe('logLogSvg', () => {
  const svg = logLogSvg({
    title: 'T & <test>',
    xLabel: 'n',
    yLabel: 'µs',
    series: [
      { label: 'linear', color: '#111111', points: [1, 2, 4, 8].map((n) => ({ n, y: n })), fit: { slope: 1, intercept: 0, from: 1, to: 8 } },
      { label: 'cubic', color: '#222222', points: [1, 2, 4, 8].map((n) => ({ n, y: n ** 3 })) },
    ],
    mark: { n: 2, label: 'here' },
  });
  it('is one svg element with escaped text', () => {
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('T &amp; &lt;test&gt;');
  });
  it('powers of two are equally spaced in x; a power law is a straight line, its slope the ratio of rises', () => {
    const lin = circles(svg, '#111111'),
      cub = circles(svg, '#222222');
    expect(lin).toHaveLength(4);
    const dx = lin.map((p, i) => (i ? p.x - lin[i - 1].x : 0)).slice(1);
    dx.forEach((d) => expect(d).toBeCloseTo(dx[0], 0));
    const rise = (s: { y: number }[]) => s[0].y - s[3].y;
    expect(rise(cub) / rise(lin)).toBeCloseTo(3, 1);
  });
  it('draws the fit dashed and the mark', () => {
    expect(svg).toMatch(/<line [^>]*stroke="#111111"[^>]*stroke-dasharray="6 4"/);
    expect(svg).toContain('>here</text>');
  });
});
