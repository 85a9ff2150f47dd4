// A hash table from expression node or symbol ids to an integer and,
// optionally, an object: open addressing over typed arrays. Code generation
// looks up every node of every function it prints (the emitter's use counts
// and values, the shape hashes of share.ts, the read counts of generate.ts);
// Maps there made a record per node and grew their own storage by doubling,
// a third of generating's allocations at n = 256 and much of its time in the
// garbage collector. A table can be emptied and used again (clear), so that
// one serves every function of a module.

const EMPTY = -1;

/** ids are the non-negative integers of expr/node.ts (node and symbol ids), below 2^31 */
export class IdTable<T = never> {
  private keys!: Int32Array;
  private ints!: Int32Array;
  /** the objects, when the table keeps any (constructor) */
  private objs!: (T | undefined)[];
  /** the slots taken, in order: clear() empties these alone */
  private taken!: Int32Array;
  private shift!: number;
  private size = 0;

  constructor(
    /** keep an object per id too (obj, setObj) */
    private readonly objects = false,
    capacity = 64,
  ) {
    let bits = 4;
    while (1 << bits < 2 * capacity) bits++;
    this.allocate(bits);
  }

  /** the slot holding id, or -1 */
  find(id: number): number {
    const keys = this.keys, mask = keys.length - 1;
    // Fibonacci hashing: the top bits of id times 2^32 / golden ratio spread consecutive ids
    for (let i = Math.imul(id, 0x9e3779b1) >>> this.shift; ; i = (i + 1) & mask) {
      const k = keys[i];
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
    if (found >= 0) return found;
    if (2 * (this.size + 1) > this.keys.length) this.grow();
    const i = this.place(id);
    this.ints[i] = int;
    return i;
  }

  /** the integer of id, or `absent` */
  get(id: number, absent = 0): number {
    const s = this.find(id);
    return s < 0 ? absent : this.ints[s];
  }

  /** adds k to the integer of id (0 if it was not there) */
  add(id: number, k: number): void {
    const s = this.slot(id); // first: adding may grow (and replace) the arrays
    this.ints[s] += k;
  }

  int(slot: number): number {
    return this.ints[slot];
  }
  setInt(slot: number, v: number): void {
    this.ints[slot] = v;
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
      this.keys[i] = EMPTY;
      if (this.objects) this.objs[i] = undefined;
    }
    this.size = 0;
  }

  /** id into its first free slot from its hash (it is not there, and there is room) */
  private place(id: number): number {
    const keys = this.keys, mask = keys.length - 1;
    let i = Math.imul(id, 0x9e3779b1) >>> this.shift;
    while (keys[i] !== EMPTY) i = (i + 1) & mask;
    keys[i] = id;
    this.taken[this.size++] = i;
    return i;
  }

  private allocate(bits: number): void {
    this.keys = new Int32Array(1 << bits).fill(EMPTY);
    this.ints = new Int32Array(1 << bits);
    this.objs = this.objects ? new Array<T | undefined>(1 << bits) : [];
    this.taken = new Int32Array(1 << (bits - 1));
    this.shift = 32 - bits;
  }

  /** twice the slots, every entry placed again in the order it came */
  private grow(): void {
    const { keys, ints, objs, taken, size } = this;
    this.allocate(33 - this.shift);
    this.size = 0;
    for (let k = 0; k < size; k++) {
      const j = taken[k];
      const i = this.place(keys[j]);
      this.ints[i] = ints[j];
      if (this.objects) this.objs[i] = objs[j];
    }
  }
}
