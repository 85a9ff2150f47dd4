// The hand-written ratio bars (src/bench/ratio-plot.ts, npm run bench:run's plot): bar
// lengths are logarithms of the ratios from 1, targets are drawn where their ratios are.
import { describe, expect, it } from 'vitest';
import { ratioSvg } from '../../src/bench/ratio-plot.ts';

/** the width of each bar of a colour, in order */
const widths = (svg: string, color: string) =>
  [...svg.matchAll(new RegExp(`<rect x="[\\d.]+" y="[\\d.]+" width="([\\d.]+)" height="[\\d.]+" fill="${color}"><title>`, 'g'))].map((m) => Number(m[1]));

describe('ratioSvg', () => {
  const svg = ratioSvg({
    title: 'R & <test>',
    xLabel: 'ratio',
    groups: [
      {
        label: 'a',
        bars: [
          { label: 'warm', color: '#111111', value: 10 },
          { label: 'cold', color: '#222222', value: 100 },
        ],
      },
      { label: 'b', bars: [{ label: 'warm', color: '#111111', value: Math.sqrt(10) }] },
    ],
    targets: [
      { value: 1.5, label: 'first' },
      { value: 2, label: 'second' },
    ],
  });
  it('is one svg element with escaped text and one legend entry per bar label', () => {
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('R &amp; &lt;test&gt;');
    expect(svg.match(/>warm<\/text>/g)).toHaveLength(1);
    expect(svg.match(/>cold<\/text>/g)).toHaveLength(1);
  });
  it('a bar is as long as log(ratio): 100 twice 10, 10 twice its square root', () => {
    const [ten, root] = widths(svg, '#111111'),
      [hundred] = widths(svg, '#222222');
    expect(hundred / ten).toBeCloseTo(2, 2);
    expect(ten / root).toBeCloseTo(2, 2);
  });
  it('draws each target dashed, their labels on either side of their lines', () => {
    expect(svg.match(/stroke-dasharray="5 4"/g)).toHaveLength(2);
    expect(svg).toMatch(/text-anchor="end" fill="#c0392b">first</);
    expect(svg).toMatch(/text-anchor="start" fill="#c0392b">second</);
  });
  it('refuses an empty plot', () => {
    expect(() => ratioSvg({ title: '', xLabel: '', groups: [], targets: [] })).toThrow(RangeError);
  });
});
