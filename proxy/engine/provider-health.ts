// Which providers are out of the rotation until told otherwise, and why each provider last failed.
// A provider is down after a failed health check, or after a failure that lasts until its address
// changes (the egress policy refusing it); a healthy check or a reset brings it back. The cause
// (its last failed dial or health check) is kept for the refusal when every eligible provider is
// cooling down or down, which then names it instead of a bare "unavailable"; a success forgets it.

export class ProviderHealth {
  private readonly down = new Set<string>();
  private readonly causes = new Map<string, string>();

  isDown(providerId: string): boolean {
    return this.down.has(providerId);
  }

  markDown(providerId: string, cause: string): void {
    this.down.add(providerId);
    this.causes.set(providerId, cause);
  }

  /** Back in the rotation, its cause forgotten; true when it was down. */
  markUp(providerId: string): boolean {
    this.causes.delete(providerId);
    return this.down.delete(providerId);
  }

  /** A failure that does not take it down (it may cool down): kept as its cause. */
  noteFailure(providerId: string, cause: string): void {
    this.causes.set(providerId, cause);
  }

  /** A success: the last failure no longer says anything. */
  forgetCause(providerId: string): void {
    this.causes.delete(providerId);
  }

  /** The distinct causes known for these providers, in their order. */
  causesOf(providers: readonly { id: string }[]): string[] {
    return [...new Set(providers.flatMap((p) => this.causes.get(p.id) ?? []))];
  }

  /** Forgets the providers no longer configured. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.down) if (!ids.has(id)) this.down.delete(id);
    for (const id of this.causes.keys()) if (!ids.has(id)) this.causes.delete(id);
  }
}
