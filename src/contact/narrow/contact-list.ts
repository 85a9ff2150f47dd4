// The contacts of one evaluation, as flat arrays (MuJoCo's d->contact):
// per contact its signed distance (negative: penetration), the unit normal
// pointing from geometry A to geometry B, the point midway between the two
// surfaces' nearest (or deepest) points, and the index of its pair. Reused
// between evaluations: clear() keeps the storage, push() grows it rarely.
export class ContactList {
  count = 0;
  dist: Float64Array;
  normal: Float64Array;
  point: Float64Array;
  pair: Int32Array;

  constructor(capacity = 16) {
    this.dist = new Float64Array(capacity);
    this.normal = new Float64Array(3 * capacity);
    this.point = new Float64Array(3 * capacity);
    this.pair = new Int32Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  push(d: number, nx: number, ny: number, nz: number, px: number, py: number, pz: number, pair: number): void {
    if (this.count === this.dist.length) this.grow();
    const k = this.count++;
    this.dist[k] = d;
    ((this.normal[3 * k] = nx), (this.normal[3 * k + 1] = ny), (this.normal[3 * k + 2] = nz));
    ((this.point[3 * k] = px), (this.point[3 * k + 1] = py), (this.point[3 * k + 2] = pz));
    this.pair[k] = pair;
  }

  /** the normals of contacts from..count-1 reversed: a pair tested as (B, A) reported as (A, B) */
  flipFrom(from: number): void {
    for (let k = 3 * from; k < 3 * this.count; k++) this.normal[k] = -this.normal[k];
  }

  /** the smallest distance of contacts from..count-1 (Infinity when none) */
  minFrom(from: number): number {
    let m = Infinity;
    for (let k = from; k < this.count; k++) m = Math.min(m, this.dist[k]);
    return m;
  }

  private grow(): void {
    const n = 2 * this.dist.length;
    const more = <T extends Float64Array | Int32Array>(a: T, k: number): T => {
      const b = new (a.constructor as new (n: number) => T)(k * n);
      b.set(a);
      return b;
    };
    ((this.dist = more(this.dist, 1)), (this.normal = more(this.normal, 3)), (this.point = more(this.point, 3)), (this.pair = more(this.pair, 1)));
  }
}
