// Per-pair contact signals. Contacts come and go, so they are no compiled
// signals: the run (run.ts) records, when asked, for every pair of the scene
// that may touch (whether or not it touches), by the pair's name
// `<geometry A>__<geometry B>` (geometry names as the scene's, e.g.
// `world.ground__ball.collision1`, A and B in the scene's order):
//   contact.<pair>.fn        the sum of its contacts' normal forces (N, >= 0)
//   contact.<pair>.ft[1..2]  its friction force on B along two tangents t1, t2
//                            of its mean normal n (tangentBasis: t1 across
//                            n and the world axis least along it, t2 = n x t1)
//   contact.<pair>.p[1..3]   the centre of pressure: the contact points
//                            weighted by their normal forces (world, m)
//   contact.<pair>.f[1..3]   the total force on B (world, N; on A its opposite)
// all 0 while the pair pushes no force. A name `contact.*` asks for every
// pair's, `contact.<pair>.*` for one pair's. Existing runs do not change: a
// run records them only when a name asks (simulate's signals, --signals).
import { UsageError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import type { ContactList } from './narrow/contact-list.ts';
import type { ContactScene } from './scene.ts';

/** the signals of one pair, in the order of its record (stride PAIR_STRIDE) */
export const PAIR_SIGNALS = ['fn', 'ft[1]', 'ft[2]', 'p[1]', 'p[2]', 'p[3]', 'f[1]', 'f[2]', 'f[3]'] as const;
export const PAIR_STRIDE = PAIR_SIGNALS.length;
const PREFIX = 'contact.';

/** the pair's name: its two geometries' names joined by a double underscore */
export const pairName = (scene: ContactScene, pair: number): string => scene.pairs[pair].map((g) => scene.geometries[g].name).join('__');

/** is this a per-pair contact signal name (or a pattern of them) */
export const isContactSignal = (name: string): boolean => name.startsWith(PREFIX);

// (asked names, scene) => the names with the patterns contact.* and contact.<pair>.* spelt out
export function expandContactSignals(names: readonly string[], scene: ContactScene): string[] {
  const pairs = scene.pairs.map((_, k) => pairName(scene, k));
  return names.flatMap((n) => {
    if (n === `${PREFIX}*`) return pairs.flatMap((p) => PAIR_SIGNALS.map((s) => `${PREFIX}${p}.${s}`));
    if (isContactSignal(n) && n.endsWith('.*')) {
      const p = n.slice(PREFIX.length, -2);
      pairIndex(scene, p, n);
      return PAIR_SIGNALS.map((s) => `${PREFIX}${p}.${s}`);
    }
    return [n];
  });
}

// (scene, a signal name contact.<pair>.<signal>) => its index into the run's pair record; a UsageError naming it otherwise
export function pairSignalIndex(scene: ContactScene, name: string): number {
  const signal = PAIR_SIGNALS.findIndex((s) => name.endsWith(`.${s}`));
  if (signal < 0) {
    throw new UsageError(`contact signal ${name} names no signal of a pair`, {
      variables: [name],
      hint: `a pair has ${PAIR_SIGNALS.join(', ')}: e.g. ${PREFIX}${scene.pairs.length ? pairName(scene, 0) : '<pair>'}.fn, or ${PREFIX}* for all`,
    });
  }
  const pair = pairIndex(scene, name.slice(PREFIX.length, -(PAIR_SIGNALS[signal].length + 1)), name);
  return PAIR_STRIDE * pair + signal;
}

function pairIndex(scene: ContactScene, pair: string, asked: string): number {
  const names = scene.pairs.map((_, k) => pairName(scene, k));
  const k = names.indexOf(pair);
  if (k >= 0) return k;
  const listed = names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ') || 'none';
  throw new UsageError(`contact signal ${asked}: no pair ${pair} in the contact scene`, {
    variables: [asked],
    hint: `${didYouMean(pair, names)}the pairs that may touch: ${listed} (contact.* asks for all)`,
  });
}

/** two unit vectors across the unit normal n: t1 across n and the world axis least along it (x unless n is near x), t2 = n x t1 */
export function tangentBasis(n: ArrayLike<number>): [[number, number, number], [number, number, number]] {
  const a: [number, number, number] = Math.abs(n[0]) < 0.9 ? [0, -n[2], n[1]] : [n[2], 0, -n[0]];
  const l = Math.hypot(...a);
  const t1: [number, number, number] = [a[0] / l, a[1] / l, a[2] / l];
  return [t1, [n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0]]];
}

// (out: pair records (stride PAIR_STRIDE), normal sums (stride 3, scratch), contacts, forces on B (stride 3), normal forces) => out
export function fillPairRecords(out: Float64Array, normals: Float64Array, c: ContactList, forces: Float64Array, fn: Float64Array): Float64Array {
  (out.fill(0), normals.fill(0));
  for (let k = 0; k < c.count; k++) {
    if (!(fn[k] > 0)) continue;
    const at = PAIR_STRIDE * c.pair[k],
      q = 3 * c.pair[k];
    out[at] += fn[k];
    for (let i = 0; i < 3; i++) {
      out[at + 3 + i] += fn[k] * c.point[3 * k + i];
      out[at + 6 + i] += forces[3 * k + i];
      normals[q + i] += fn[k] * c.normal[3 * k + i];
    }
  }
  for (let at = 0, q = 0; at < out.length; at += PAIR_STRIDE, q += 3) {
    const total = out[at];
    if (!(total > 0)) continue;
    for (let i = 0; i < 3; i++) out[at + 3 + i] /= total;
    const len = Math.hypot(normals[q], normals[q + 1], normals[q + 2]);
    const n = [normals[q] / len, normals[q + 1] / len, normals[q + 2] / len];
    const f = out.subarray(at + 6, at + 9),
      fnormal = f[0] * n[0] + f[1] * n[1] + f[2] * n[2];
    const ft = [f[0] - fnormal * n[0], f[1] - fnormal * n[1], f[2] - fnormal * n[2]];
    const [t1, t2] = tangentBasis(n);
    out[at + 1] = ft[0] * t1[0] + ft[1] * t1[1] + ft[2] * t1[2];
    out[at + 2] = ft[0] * t2[0] + ft[1] * t2[1] + ft[2] * t2[2];
  }
  return out;
}
