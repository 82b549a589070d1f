// A map whose entries disappear after a fixed time (prepared uploads, session snapshots, kept
// downloads); `dispose` runs for each entry that leaves it, however it leaves.
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; timer: NodeJS.Timeout }>();

  constructor(
    private readonly ttlMs: number,
    private readonly dispose: (value: V) => void = () => {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const timer = setTimeout(() => this.delete(key), this.ttlMs);
    timer.unref();
    this.entries.set(key, { value, timer });
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Removes and returns the entry (not disposed: the caller has it). */
  take(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    return entry.value;
  }

  delete(key: string): boolean {
    const value = this.take(key);
    if (value === undefined) return false;
    this.dispose(value);
    return true;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key);
  }
}
