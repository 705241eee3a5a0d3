// Inverted lists in compressed-row form: every list of every key lives in one Int32Array.
// Built from (key, id) pairs appended in id order, so each list comes out sorted without
// a sort and the build allocates a handful of typed arrays instead of a JS array per key.

class IntBuffer {
  private data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(i: number): number {
    return this.data[i]!;
  }
}

export class Postings {
  constructor(
    private readonly ids: Map<string, number>,
    /** keys by id, in first-seen order */
    readonly keys: readonly string[],
    private readonly offsets: Int32Array,
    /** every list, back to back: list `id` is values[start(id), start(id + 1)) */
    readonly values: Int32Array,
  ) {}

  /** Where list `id` starts in `values` (and, for id + 1, where list `id` ends): no view allocated. */
  start(id: number): number {
    return this.offsets[id]!;
  }

  get size(): number {
    return this.keys.length;
  }

  get total(): number {
    return this.values.length;
  }

  idOf(key: string): number | undefined {
    return this.ids.get(key);
  }

  /** The sorted list of a key, or undefined. */
  get(key: string): Int32Array | undefined {
    const id = this.ids.get(key);
    return id === undefined ? undefined : this.list(id);
  }

  list(id: number): Int32Array {
    return this.values.subarray(this.offsets[id]!, this.offsets[id + 1]!);
  }

  count(id: number): number {
    return this.offsets[id + 1]! - this.offsets[id]!;
  }
}

export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly last: number[] = [];
  private readonly pairKey = new IntBuffer();
  private readonly pairValue = new IntBuffer();

  /** Appends `value` to the list of `key`; values must arrive in non-decreasing order per key. */
  add(key: string, value: number): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.last.push(-1);
    }
    if (this.last[id] !== value) {
      this.last[id] = value;
      this.pairKey.push(id);
      this.pairValue.push(value);
    }
    return id;
  }

  build(): Postings {
    const n = this.keys.length;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < this.pairKey.length; i++) offsets[this.pairKey.at(i) + 1]!++;
    for (let k = 0; k < n; k++) offsets[k + 1]! += offsets[k]!;
    const values = new Int32Array(this.pairKey.length);
    const fill = offsets.slice(0, n);
    for (let i = 0; i < this.pairKey.length; i++) values[fill[this.pairKey.at(i)]!++] = this.pairValue.at(i);
    return new Postings(this.ids, this.keys, offsets, values);
  }
}
