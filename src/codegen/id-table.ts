// A hash table from expression node or symbol ids to an integer and,
// optionally, an object: open addressing over typed arrays. Code generation
// looks up every node of every function it prints (the emitter's use counts
// and values, the shape hashes of share.ts, the read counts of generate.ts);
// Maps there made a record per node and grew their own storage by doubling,
// a third of generating's allocations at n = 256 and much of its time in the
// garbage collector. A table can be emptied and used again (clear), so that
// one serves every function of a module.
//
// The large tables (a module's shape hashes and read counts) are bound by
// cache misses, not arithmetic: an id and its integer share a cache line, and
// ids made one after the other (the nodes of one expression, mostly) fall in
// the same line of 8 slots (BLOCK), the lines spread by Fibonacci hashing:
// hashing a chain of 256's assignments took half the time it took with ids
// spread one by one.

const EMPTY = -1;
/** log2 of the slots that consecutive ids share */
const BLOCK = 3;

/** ids are the non-negative integers of expr/node.ts (node and symbol ids), below 2^31 */
export class IdTable<T = never> {
  /** slot i: its id at 2i (EMPTY if none), its integer at 2i + 1 */
  private pairs!: Int32Array;
  /** the objects, when the table keeps any (constructor) */
  private objs!: (T | undefined)[];
  /** the slots taken, in order: clear() empties these alone */
  private taken!: Int32Array;
  /** 32 - log2(the number of blocks) */
  private shift!: number;
  private mask!: number;
  private size = 0;

  constructor(
    /** keep an object per id too (obj, setObj) */
    private readonly objects = false,
    capacity = 64,
  ) {
    let bits = BLOCK + 1;
    while (1 << bits < 2 * capacity) bits++;
    this.allocate(bits);
  }

  /** where id's probe starts: its block from a hash of the id's high bits, its place in the block from the low ones */
  private home(id: number): number {
    return ((Math.imul(id >>> BLOCK, 0x9e3779b1) >>> this.shift) << BLOCK) | (id & ((1 << BLOCK) - 1));
  }

  /** the slot holding id, or -1 */
  find(id: number): number {
    const pairs = this.pairs,
      mask = this.mask;
    for (let i = this.home(id); ; i = (i + 1) & mask) {
      const k = pairs[2 * i];
      if (k === id) return i;
      if (k === EMPTY) return -1;
    }
  }

  has(id: number): boolean {
    return this.find(id) >= 0;
  }

  /** the slot holding id, added with this integer and no object if it is not there (slots found before may move) */
  slot(id: number, int = 0): number {
    const found = this.find(id);
    return found >= 0 ? found : this.insert(id, int);
  }

  /** the slot of id, added with this integer: id is not there (find said so; slots found before may move) */
  insert(id: number, int = 0): number {
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const i = this.place(id);
    this.pairs[2 * i + 1] = int;
    return i;
  }

  /** the integer of id, or `absent` */
  get(id: number, absent = 0): number {
    const s = this.find(id);
    return s < 0 ? absent : this.pairs[2 * s + 1];
  }

  /** adds k to the integer of id (0 if it was not there) */
  add(id: number, k: number): void {
    const s = this.slot(id); // first: adding may grow (and replace) the arrays
    this.pairs[2 * s + 1] += k;
  }

  int(slot: number): number {
    return this.pairs[2 * slot + 1];
  }
  setInt(slot: number, v: number): void {
    this.pairs[2 * slot + 1] = v;
  }
  obj(slot: number): T | undefined {
    return this.objs[slot];
  }
  setObj(slot: number, v: T): void {
    this.objs[slot] = v;
  }

  /** no ids, the storage kept: the time is that of the ids there were */
  clear(): void {
    for (let k = 0; k < this.size; k++) {
      const i = this.taken[k];
      this.pairs[2 * i] = EMPTY;
      if (this.objects) this.objs[i] = undefined;
    }
    this.size = 0;
  }

  /** id into its first free slot from its home (it is not there, and there is room) */
  private place(id: number): number {
    if (!(id >= 0 && id <= 0x7fffffff)) throw new RangeError(`IdTable: id ${id} is not a non-negative 32-bit integer`);
    const pairs = this.pairs,
      mask = this.mask;
    let i = this.home(id);
    while (pairs[2 * i] !== EMPTY) i = (i + 1) & mask;
    pairs[2 * i] = id;
    this.taken[this.size++] = i;
    return i;
  }

  private allocate(bits: number): void {
    this.pairs = new Int32Array(2 << bits).fill(EMPTY);
    this.objs = this.objects ? new Array<T | undefined>(1 << bits) : [];
    this.taken = new Int32Array(1 << (bits - 1));
    this.shift = 32 - (bits - BLOCK);
    this.mask = (1 << bits) - 1;
  }

  /** twice the slots, every entry placed again in the order it came */
  private grow(): void {
    const { pairs, objs, taken, size } = this;
    this.allocate(Math.log2(this.mask + 1) + 1);
    this.size = 0;
    for (let k = 0; k < size; k++) {
      const j = taken[k];
      const i = this.place(pairs[2 * j]);
      this.pairs[2 * i + 1] = pairs[2 * j + 1];
      if (this.objects) this.objs[i] = objs[j];
    }
  }
}
