// Spatial algebra on symbols, as sums of terms (tree-emit.ts) that the
// caller adds together and emits as one line per component: the same
// operations as spatial-ops.ts (world frame about the origin, angular part
// first; an inertia as m, h = m c, J = xx yy zz xy xz yz about the origin),
// written once for the generated recursions of tree-codegen.ts.
import type { Emitter, Sym, Term } from './tree-emit.ts';

export type Vec = readonly Sym[];
/** six components, each a sum of terms */
export type Terms6 = Term[][];

/** body inertia: mass, first moment h = m c (3), rotational inertia about the origin J (6) */
export interface Inertia {
  m: Sym;
  h: Vec;
  J: Vec;
}

/** a x b, motion x motion: (aw x bw, aw x bv + av x bw) */
export const crossM = (a: Vec, b: Vec): Terms6 => [
  [
    [a[1], b[2]],
    [-1, a[2], b[1]],
  ],
  [
    [a[2], b[0]],
    [-1, a[0], b[2]],
  ],
  [
    [a[0], b[1]],
    [-1, a[1], b[0]],
  ],
  [
    [a[1], b[5]],
    [-1, a[2], b[4]],
    [a[4], b[2]],
    [-1, a[5], b[1]],
  ],
  [
    [a[2], b[3]],
    [-1, a[0], b[5]],
    [a[5], b[0]],
    [-1, a[3], b[2]],
  ],
  [
    [a[0], b[4]],
    [-1, a[1], b[3]],
    [a[3], b[1]],
    [-1, a[4], b[0]],
  ],
];

/** a x* f, motion x force: (aw x n + av x f, aw x f) */
export const crossF = (a: Vec, f: Vec): Terms6 => [
  [
    [a[1], f[2]],
    [-1, a[2], f[1]],
    [a[4], f[5]],
    [-1, a[5], f[4]],
  ],
  [
    [a[2], f[0]],
    [-1, a[0], f[2]],
    [a[5], f[3]],
    [-1, a[3], f[5]],
  ],
  [
    [a[0], f[1]],
    [-1, a[1], f[0]],
    [a[3], f[4]],
    [-1, a[4], f[3]],
  ],
  [
    [a[1], f[5]],
    [-1, a[2], f[4]],
  ],
  [
    [a[2], f[3]],
    [-1, a[0], f[5]],
  ],
  [
    [a[0], f[4]],
    [-1, a[1], f[3]],
  ],
];

/** I x = (J w + h x v, m v - h x w) */
export function times(I: Inertia, x: Vec): Terms6 {
  const { m, h, J } = I;
  return [
    [
      [J[0], x[0]],
      [J[3], x[1]],
      [J[4], x[2]],
      [h[1], x[5]],
      [-1, h[2], x[4]],
    ],
    [
      [J[3], x[0]],
      [J[1], x[1]],
      [J[5], x[2]],
      [h[2], x[3]],
      [-1, h[0], x[5]],
    ],
    [
      [J[4], x[0]],
      [J[5], x[1]],
      [J[2], x[2]],
      [h[0], x[4]],
      [-1, h[1], x[3]],
    ],
    [
      [m, x[3]],
      [-1, h[1], x[2]],
      [h[2], x[1]],
    ],
    [
      [m, x[4]],
      [-1, h[2], x[0]],
      [h[0], x[2]],
    ],
    [
      [m, x[5]],
      [-1, h[0], x[1]],
      [h[1], x[0]],
    ],
  ];
}

/** a vector as terms (each component one term) */
export const terms = (a: Vec): Terms6 => a.map((x) => [[x]]);

/** the terms of several six-vectors, each scaled by its factor, added component by component */
export function plus(...parts: [number, Terms6][]): Terms6 {
  return [0, 1, 2, 3, 4, 5].map((k) => parts.flatMap(([c, t]) => t[k].map((term) => (c === 1 ? term : [c, ...term]))));
}

/** the six sums emitted (one line each, or a folded number) */
export const emit6 = (e: Emitter, t: Terms6): Sym[] => t.map((s) => e.sum(s));

/** each component stored in the workspace */
export const store = (e: Emitter, v: Vec): Sym[] => v.map((x) => e.store(x));

/** a . b over six (or three) components, as terms */
export const dotTerms = (a: Vec, b: Vec): Term[] => a.map((x, i) => [x, b[i]]);
