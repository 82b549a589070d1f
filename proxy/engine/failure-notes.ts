// Why each provider is out of the rotation: the last failed dial (which may have started its
// cooldown) or the health check that marked it down. A refusal because every eligible provider is
// cooling down or unhealthy names these causes (an egress policy that refuses the address, a
// refused port), instead of a bare "unavailable". A success, a healthy check or a reset forgets it.

export class FailureNotes {
  private readonly notes = new Map<string, string>();

  note(providerId: string, reason: string): void {
    this.notes.set(providerId, reason);
  }

  forget(providerId: string): void {
    this.notes.delete(providerId);
  }

  /** The distinct causes noted for these providers, in their order; none for providers without one. */
  causesOf(providers: readonly { id: string }[]): string[] {
    return [...new Set(providers.flatMap((p) => this.notes.get(p.id) ?? []))];
  }

  /** Drops the notes of providers no longer configured. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.notes.keys()) if (!ids.has(id)) this.notes.delete(id);
  }
}
