/**
 * A bounded log: the newest items within `capacity` entries AND `maxBytes` (as measured by
 * `sizeOf`), and a count of what fell out. One huge entry cannot hold the memory that a
 * thousand small ones were allowed: both caps hold at all times.
 */
export class RingBuffer<T> {
  private items: T[] = [];
  private sizes: number[] = [];
  private head = 0;
  dropped = 0;
  bytes = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes = Number.POSITIVE_INFINITY,
    private readonly sizeOf: (item: T) => number = () => 0,
  ) {}

  push(item: T): void {
    const size = this.sizeOf(item);
    this.items.push(item);
    this.sizes.push(size);
    this.bytes += size;
    while (this.items.length - this.head > this.capacity || (this.bytes > this.maxBytes && this.items.length - this.head > 1)) {
      this.bytes -= this.sizes[this.head];
      (this.items as unknown[])[this.head] = undefined;
      this.head++;
      this.dropped++;
    }
    // Compact now and then instead of shift() per push (O(n) each under a flood).
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }

  get size(): number {
    return this.items.length - this.head;
  }
}
