'use client';
// Router keys the user has just been shown (router created, key created, keys rotated). The
// Connect tab fills the newest into its snippets. Kept in memory only: never in storage or in a
// URL, and gone on reload, like the one-time reveal itself.
import { useSyncExternalStore } from 'react';

const keys = new Map<string, string>();
const listeners = new Set<() => void>();

export function rememberRevealedKey(routerId: string, plaintextKey: string): void {
  keys.set(routerId, plaintextKey);
  listeners.forEach((listener) => listener());
}

/** Forgets a key that stopped working (revoked, or rotated away). */
export function forgetRevealedKey(routerId: string, prefix?: string): void {
  const key = keys.get(routerId);
  if (key && (prefix === undefined || key.startsWith(prefix))) {
    keys.delete(routerId);
    listeners.forEach((listener) => listener());
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRevealedKey(routerId: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => keys.get(routerId) ?? null,
    () => null,
  );
}
