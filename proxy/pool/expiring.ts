// A map whose entries disappear after a fixed time (prepared uploads, session snapshots).
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; timer: NodeJS.Timeout }>();

  constructor(private readonly ttlMs: number) {}

  get size(): number {
    return this.entries.size;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const timer = setTimeout(() => this.entries.delete(key), this.ttlMs);
    timer.unref();
    this.entries.set(key, { value, timer });
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Removes and returns the entry. */
  take(key: string): V | undefined {
    const value = this.get(key);
    this.delete(key);
    return value;
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    clearTimeout(entry.timer);
    return this.entries.delete(key);
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key);
  }
}
