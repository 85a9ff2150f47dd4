// Pixel comparisons of the viewer's screenshots (pngjs images), shared by the browser tests.
import type { PNG } from 'pngjs';

/** a rectangle on the page, in CSS pixels (the viewer's state gives them for the mechanism and its parts) */
export type Box = { x: number; y: number; width: number; height: number };

export const inside = (b: Box, x: number, y: number) => x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;

/** pixels that differ by more than 40 in some channel, inside and outside a box */
export function changed(a: PNG, b: PNG, box: Box): { inside: number; outside: number; outsideTotal: number } {
  const out = { inside: 0, outside: 0, outsideTotal: 0 };
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      const differs = [0, 1, 2].some((c) => Math.abs(a.data[i + c] - b.data[i + c]) > 40);
      if (inside(box, x, y)) out.inside += +differs;
      else ((out.outside += +differs), out.outsideTotal++);
    }
  }
  return out;
}
