/** A fixed-size log: the newest `capacity` items, and a count of what fell out. */
export class RingBuffer<T> {
  private items: T[] = [];
  dropped = 0;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.dropped++;
    }
  }

  toArray(): T[] {
    return this.items.slice();
  }

  get size(): number {
    return this.items.length;
  }
}
