// Value numbering by exact evaluation modulo primes: two expressions that are
// different trees but the same rational function of their atoms (the two
// triangles of a symmetric articulated inertia, I_A = I + X^T I_A X built
// entry by entry) get the same fingerprint, so the second is not computed.
//
// Each expression is evaluated exactly in GF(p) for three primes p < 2^31 at
// one random point: every symbol is an independent random residue, every
// function application (sin q, sqrt(...), abs(...)) an independent random
// residue keyed by the function and its arguments' fingerprints. Equal
// rational functions of those atoms have equal fingerprints; different ones
// collide with probability at most deg/p per prime (Schwartz-Zippel), ~1e-19
// for the three primes at degrees of thousands. Nothing is assumed of the
// functions (sin^2 + cos^2 = 1 is not known, a kink of abs cannot mislead a
// random point as it could in floating point), so an equality found holds as
// an identity of the expressions' values, not up to rounding. Constants are
// exact: a double is m 2^e with integer m, mapped to m (2^e mod p).
import { type Expr, type Sym } from './node.ts';
import { fold } from './fold.ts';

const PRIMES = [2147483647, 2147483629, 2147483587] as const;
const K = PRIMES.length;
const ZERO_FP: readonly number[] = PRIMES.map(() => 0);

/** the residues of an expression at the random point, one per prime; null: not defined there (a denominator vanishes) */
export type Fingerprint = readonly number[] | null;

/** a * b mod p for 0 <= a, b < p < 2^31, exact in doubles: b split in 15 + 16 bits */
function mulmod(a: number, b: number, p: number): number {
  const hi = Math.floor(b / 65536),
    lo = b - hi * 65536;
  return (((a * hi) % p) * 65536 + a * lo) % p;
}

function powmod(a: number, n: number, p: number): number {
  let r = 1;
  for (let b = a; n > 0; n = Math.floor(n / 2), b = mulmod(b, b, p)) if (n % 2 === 1) r = mulmod(r, b, p);
  return r;
}

/** a^-1 mod p by the extended Euclidean algorithm; 0 has none */
function invmod(a: number, p: number): number | undefined {
  if (a === 0) return undefined;
  let [r0, r1, s0, s1] = [p, a, 0, 1];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % p) + p) % p;
}

/** an exact double as a residue: x = m 2^e, m an integer below 2^53 */
function constant(x: number, p: number): number | undefined {
  if (!Number.isFinite(x)) return undefined;
  let m = x,
    e = 0;
  while (!Number.isInteger(m)) [m, e] = [m * 2, e - 1];
  while (Math.abs(m) >= 2 ** 53) [m, e] = [m / 2, e + 1];
  const r = ((m % p) + p) % p;
  const two = e >= 0 ? powmod(2, e, p) : invmod(powmod(2, -e, p), p)!;
  return mulmod(r, two, p);
}

/** a residue in [1, p) drawn from a string key and the prime's index (cyrb53, a seeded 53-bit hash) */
function atom(key: string, k: number, p: number): number {
  let h1 = 0xdeadbeef ^ k,
    h2 = 0x41c6ce57 ^ k;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 1 + ((4294967296 * (2097151 & h2) + (h1 >>> 0)) % (p - 1));
}

/** a fingerprint from its residue under each prime; null if one is undefined */
function perPrime(f: (p: number, k: number) => number | undefined): Fingerprint {
  const out = new Array<number>(K);
  for (let k = 0; k < K; k++) {
    const v = f(PRIMES[k], k);
    if (v === undefined) return null;
    out[k] = v;
  }
  return out;
}

/**
 * Fingerprints of the expressions of one compile. A symbol bound by bind()
 * (a temporary of the elimination) stands for its expression's value; any
 * other symbol is an atom of its own (its id keys it: two symbols are never
 * taken for each other).
 */
export class Fingerprints {
  private readonly bound = new Map<number, Fingerprint>();

  /** sym now stands for e's value (fp: e's fingerprint, when known) */
  bind(sym: Sym, e: Expr, fp: Fingerprint = this.of(e)): void {
    this.bound.set(sym.id, fp);
  }

  /**
   * Fingerprints by node id, kept for the life of this object: a node's
   * fingerprint never changes once taken (bind() names a fresh temporary
   * before any expression reads it), and each new temporary's expression is
   * made of earlier ones, so a walk stops at the nodes fingerprinted before.
   */
  private readonly known = new Map<number, Fingerprint>();

  of(e: Expr): Fingerprint {
    return fold<Fingerprint>(e, this.known, (n, a) => this.node(n, a));
  }

  private readonly constants = new Map<number, Fingerprint>();

  // the hot path of value numbering (every temporary of an elimination): loops, no closures per node
  private node(n: Expr, a: Fingerprint[]): Fingerprint {
    switch (n.op) {
      case 'const': {
        let fp = this.constants.get(n.value);
        if (fp === undefined) this.constants.set(n.value, (fp = perPrime((p) => constant(n.value, p))));
        return fp;
      }
      case 'sym': {
        let fp = this.bound.get(n.sym!.id);
        if (fp === undefined) this.bound.set(n.sym!.id, (fp = perPrime((p, k) => atom(`s${n.sym!.id}`, k, p))));
        return fp;
      }
      case 'relax':
        return a[0];
      case 'residue':
        return ZERO_FP;
    }
    for (const x of a) if (x === null) return null;
    const v = a as (readonly number[])[];
    if (n.op === 'fn') {
      const key = `${n.fn}(${v.map((x) => x.join(',')).join(';')})`;
      return perPrime((p, k) => atom(key, k, p));
    }
    const out = new Array<number>(K);
    for (let k = 0; k < K; k++) {
      const p = PRIMES[k];
      let r: number;
      if (n.op === 'add') {
        r = 0;
        for (const x of v) if ((r += x[k]) >= p) r -= p;
      } else if (n.op === 'mul') {
        r = 1;
        for (const x of v) r = mulmod(r, x[k], p);
      } else if (n.op === 'div') {
        const inv = invmod(v[1][k], p);
        if (inv === undefined) return null;
        r = mulmod(v[0][k], inv, p);
      } else r = powmod(v[0][k], n.value, p); // pow
      out[k] = r;
    }
    return out;
  }
}

/** both defined and equal under every prime */
export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  if (a === null || b === null) return false;
  for (let k = 0; k < K; k++) if (a[k] !== b[k]) return false;
  return true;
}

interface Entry<T> {
  readonly fp: Fingerprint;
  value: T;
  /** the next entry whose key is the same (a different fingerprint) */
  next: Entry<T> | undefined;
}

/**
 * Values keyed by fingerprint: a small integer made of the first two
 * residues finds the entries (no string, and no heap number as a wider key
 * would be, per lookup), the whole fingerprint picks the one.
 */
export class ByFingerprint<T> {
  private readonly map = new Map<number, Entry<T>>();
  get(fp: Fingerprint): T | undefined {
    if (fp === null) return undefined;
    for (let e = this.map.get(key(fp)); e !== undefined; e = e.next) if (sameFingerprint(e.fp, fp)) return e.value;
    return undefined;
  }
  set(fp: Fingerprint, value: T): void {
    if (fp === null) return;
    const k = key(fp);
    const first = this.map.get(k);
    for (let e = first; e !== undefined; e = e.next) {
      if (sameFingerprint(e.fp, fp)) {
        e.value = value;
        return;
      }
    }
    this.map.set(k, { fp, value, next: first });
  }
  /** every entry of `other` into this one */
  merge(other: ByFingerprint<T>): void {
    for (const first of other.map.values()) for (let e: Entry<T> | undefined = first; e !== undefined; e = e.next) this.set(e.fp, e.value);
  }
}

/** 30 bits of a (non-null) fingerprint: a small integer */
function key(fp: readonly number[]): number {
  return (fp[0] ^ Math.imul(fp[1], 0x9e3779b1)) & 0x3fffffff;
}

/** the expression is zero at the point under every prime: identically zero, with the probability above */
export function isZeroFingerprint(fp: Fingerprint): boolean {
  return fp !== null && fp.every((v) => v === 0);
}

/** the fingerprint of -e from that of e */
export function negatedFingerprint(fp: Fingerprint): Fingerprint {
  return fp === null ? null : fp.map((v, k) => (v === 0 ? 0 : PRIMES[k] - v));
}
