// A seeded pseudo-random generator, written out so that one seed gives the
// same samples on every machine and Node version (Math.random cannot be
// seeded): xoshiro128** (Blackman & Vigna, "Scrambled linear pseudorandom
// number generators", 2018), its 128-bit state filled from a 32-bit seed by
// splitmix32; uniform doubles with 53 random bits; normal deviates by the
// Box-Muller transform, both of a pair used.

/** a seeded generator of uniform and normal deviates (xoshiro128**): one seed, the same samples everywhere */
export class Random {
  private readonly s = new Uint32Array(4);
  /** the second deviate of the last Box-Muller pair */
  private spare: number | undefined;

  constructor(seed: number) {
    // splitmix32: consecutive seeds give unrelated states, and no seed gives the all-zero state
    let z = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      z = (z + 0x9e3779b9) >>> 0;
      let t = z;
      t = Math.imul(t ^ (t >>> 16), 0x21f0aaad);
      t = Math.imul(t ^ (t >>> 15), 0x735a2d97);
      this.s[i] = (t ^ (t >>> 15)) >>> 0;
    }
  }

  /** the next 32 random bits (xoshiro128**) */
  nextUint32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** uniform in [0, 1), 53 random bits */
  next(): number {
    const hi = this.nextUint32() >>> 5,
      lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** uniform in [a, b) */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.next();
  }

  /** normal with this mean and standard deviation (Box-Muller: two uniforms give two independent deviates) */
  normal(mean: number, sd: number): number {
    if (this.spare !== undefined) {
      const z = this.spare;
      this.spare = undefined;
      return mean + sd * z;
    }
    const u1 = 1 - this.next(); // in (0, 1]: log(u1) is finite
    const u2 = this.next();
    const r = Math.sqrt(-2 * Math.log(u1)),
      phi = 2 * Math.PI * u2;
    this.spare = r * Math.sin(phi);
    return mean + sd * r * Math.cos(phi);
  }
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
