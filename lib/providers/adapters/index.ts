// The adapters by kind, one instance per process (adapter-one keeps browsers between sessions).
import type { AdapterKind, AdapterOneOptions, AdapterTwoOptions } from '../schemas';
import { createAdapterOne } from './adapter-one';
import { createAdapterTwo } from './adapter-two';
import type { VendorAdapter } from './types';

export interface AdapterOptionsByKind {
  'adapter-one': AdapterOneOptions;
  'adapter-two': AdapterTwoOptions;
}

type Registry = { [K in AdapterKind]: VendorAdapter<AdapterOptionsByKind[K]> };

const globalForAdapters = globalThis as unknown as { __vendorAdapters?: Registry };

export function getAdapter<K extends AdapterKind>(kind: K): Registry[K] {
  globalForAdapters.__vendorAdapters ??= { 'adapter-one': createAdapterOne(), 'adapter-two': createAdapterTwo() };
  return globalForAdapters.__vendorAdapters[kind];
}

export { VendorError } from './types';
export type { CreatedSession, ReleaseResult, SessionRef, VendorAdapter, VendorCredentials } from './types';
