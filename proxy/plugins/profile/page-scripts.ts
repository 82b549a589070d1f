// The expressions the profile plugin evaluates in its helper page (a blank document on the origin,
// served by Fetch interception) with Runtime.evaluate({ awaitPromise: true, returnByValue: true }):
// one reads an origin's localStorage and IndexedDB into the saved-state shape, one writes that shape
// back. IndexedDB keys and values that are not plain JSON use the encoding of page-scripts-codec.ts
// (Playwright's). The page code is plain JavaScript sent as text (see the codec file for why).
import { PROFILE_MAX_BYTES, type IndexedDbDatabase } from '../../../lib/profiles/state';
import { CODEC_SOURCE } from './page-scripts-codec';

/** One origin's storage as the page scripts read and write it. */
export interface OriginStorage {
  localStorage: Record<string, string>;
  indexedDB?: IndexedDbDatabase[];
}

/** What writeOriginExpression resolves to: items and records written. */
export interface WriteCounts {
  localStorage: number;
  records: number;
}

export interface ReadOptions {
  /** Read every IndexedDB database of the origin too (else the result has no `indexedDB`). */
  indexedDB: boolean;
  /** Give up above this many bytes of serialized state (default: the profile limit, 10 MB). */
  maxBytes?: number;
}

/** An expression resolving to the page origin's OriginStorage. Databases and stores come sorted by name, records by key. */
export function readOriginExpression(options: ReadOptions): string {
  const args = { indexedDB: options.indexedDB, maxBytes: options.maxBytes ?? PROFILE_MAX_BYTES };
  return `(async () => {\n${CODEC_SOURCE}\n${READ_SOURCE}\nreturn readOrigin(${JSON.stringify(args)});\n})()`;
}

/**
 * An expression that replaces the page origin's localStorage with the state's (left alone when the
 * state has none) and recreates each of
 * the state's databases (deleted first, when it exists) with its stores, indexes and records;
 * resolves to WriteCounts. Without `indexedDB` the origin's databases are left alone. Every record
 * is decoded before anything is changed, so a malformed state changes nothing.
 */
export function writeOriginExpression(state: Partial<Pick<OriginStorage, 'localStorage'>> & Omit<OriginStorage, 'localStorage'>): string {
  const payload = { ...(state.localStorage ? { localStorage: state.localStorage } : {}), ...(state.indexedDB ? { indexedDB: state.indexedDB } : {}) };
  // User data enters the code only as a string literal that JSON.parse reads: never as code, and a
  // `__proto__` key stays a key (an object literal would set the prototype instead).
  return `(async () => {\n${CODEC_SOURCE}\n${WRITE_SOURCE}\nreturn writeOrigin(JSON.parse(${JSON.stringify(JSON.stringify(payload))}));\n})()`;
}

const READ_SOURCE = String.raw`
const where = (db, store) => 'IndexedDB "' + db + '"' + (store === undefined ? '' : ' store "' + store + '"') + ': ';
const keyPathOf = (keyPath) => (typeof keyPath === 'string' ? { keyPath } : Array.isArray(keyPath) ? { keyPathArray: Array.from(keyPath) } : {});

async function readOrigin(options) {
  const budget = { used: 0, limit: options.maxBytes };
  const spend = (json) => {
    budget.used += utf8Length(json);
    if (budget.used > budget.limit) throw sizeError(budget.limit);
  };
  const items = {};
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    const value = name === null ? null : localStorage.getItem(name);
    if (value === null) continue;
    spend(JSON.stringify(name) + JSON.stringify(value));
    setOwn(items, name, value);
  }
  if (!options.indexedDB) return { localStorage: items };
  if (typeof indexedDB.databases !== 'function') throw new Error('indexedDB.databases() is not available in this browser');
  const infos = (await indexedDB.databases()).filter((info) => typeof info.name === 'string');
  infos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const databases = [];
  // One database at a time: memory and the size budget grow in a known order.
  for (const info of infos) {
    const database = await readDatabase(info.name, budget, spend);
    if (database) databases.push(database);
  }
  return { localStorage: items, indexedDB: databases };
}

/** Opens a database that exists; null when it was deleted since databases() listed it. */
function openExisting(name) {
  return new Promise((resolve, reject) => {
    let created = false;
    const request = indexedDB.open(name);
    // Opening a name that is gone would create it: abort that instead.
    request.onupgradeneeded = () => {
      created = true;
      request.transaction.abort();
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = (event) => {
      event.preventDefault();
      if (created) resolve(null);
      else reject(new Error(where(name) + 'cannot be opened: ' + (request.error && request.error.message)));
    };
  });
}

async function readDatabase(name, budget, spend) {
  const db = await openExisting(name);
  if (!db) return null;
  db.onversionchange = () => db.close();
  try {
    const storeNames = Array.from(db.objectStoreNames);
    const stores = [];
    if (storeNames.length === 0) return { name, version: db.version, stores };
    const transaction = db.transaction(storeNames, 'readonly');
    await new Promise((resolve, reject) => {
      let failure = null;
      const fail = (error) => {
        if (failure) return;
        failure = error;
        try { transaction.abort(); } catch { /* already finished */ }
      };
      transaction.oncomplete = () => (failure ? reject(failure) : resolve());
      transaction.onabort = () => reject(failure || new Error(where(name) + 'the read was aborted: ' + (transaction.error && transaction.error.message)));
      for (const storeName of storeNames) {
        const store = transaction.objectStore(storeName);
        const indexes = Array.from(store.indexNames, (indexName) => {
          const index = store.index(indexName);
          return { name: indexName, ...keyPathOf(index.keyPath), multiEntry: index.multiEntry, unique: index.unique };
        });
        const out = { name: storeName, autoIncrement: store.autoIncrement, ...keyPathOf(store.keyPath), indexes, records: [] };
        stores.push(out);
        // Callbacks, not awaits: the cursor must move on while the transaction is still active.
        const cursorRequest = store.openCursor();
        cursorRequest.onsuccess = () => {
          const cursor = cursorRequest.result;
          if (!cursor || failure) return;
          try {
            const record = {};
            // In-line keys are part of the value; only out-of-line keys are saved apart.
            if (store.keyPath === null) put(record, 'key', cursor.primaryKey, budget);
            put(record, 'value', cursor.value, budget);
            spend(JSON.stringify(record));
            out.records.push(record);
            cursor.continue();
          } catch (error) {
            fail(error.name === 'ProfileTooLarge' ? error : new Error(where(name, storeName) + error.message));
          }
        };
        cursorRequest.onerror = (event) => {
          event.preventDefault();
          fail(new Error(where(name, storeName) + 'cannot be read: ' + (cursorRequest.error && cursorRequest.error.message)));
        };
      }
    });
    return { name, version: db.version, stores };
  } finally {
    db.close();
  }
}

function put(record, field, value, budget) {
  const result = encodeValue(value, budget);
  if (result.plain) record[field] = value;
  else record[field + 'Encoded'] = result.encoded;
}
`;

const WRITE_SOURCE = String.raw`
const where = (db, store) => 'IndexedDB "' + db + '"' + (store === undefined ? '' : ' store "' + store + '"') + ': ';

async function writeOrigin(state) {
  const plans = (state.indexedDB || []).map(planDatabase);
  let records = 0;
  for (const plan of plans) records += await writeDatabase(plan);
  // After the databases: a record the browser refuses leaves localStorage as it was.
  // No localStorage in the state: the origin's is left as it is (restored from the provider's files).
  if (!state.localStorage) return { localStorage: 0, records };
  localStorage.clear();
  const entries = Object.entries(state.localStorage);
  for (const [name, value] of entries) localStorage.setItem(name, String(value));
  return { localStorage: entries.length, records };
}

/** Checks a database of the state and decodes its records; throws before anything is written. */
function planDatabase(db) {
  if (!db || typeof db.name !== 'string') throw new Error('an IndexedDB database without a name');
  if (!Number.isInteger(db.version) || db.version < 1) throw new Error(where(db.name) + 'version must be a positive integer');
  const stores = (db.stores || []).map((store) => {
    const keyPath = store.keyPathArray != null ? store.keyPathArray : store.keyPath != null ? store.keyPath : null;
    const records = (store.records || []).map((record, i) => {
      try {
        const value = own(record, 'value') ? record.value : decodeValue(record.valueEncoded);
        // An in-line key is read from the value; a key given as well would make add() fail.
        if (keyPath !== null) return { value };
        if (own(record, 'key')) return { value, key: record.key };
        if (own(record, 'keyEncoded')) return { value, key: decodeValue(record.keyEncoded) };
        return { value };
      } catch (error) {
        throw new Error(where(db.name, store.name) + 'record ' + i + ': ' + error.message);
      }
    });
    return { name: store.name, keyPath, autoIncrement: Boolean(store.autoIncrement), indexes: store.indexes || [], records };
  });
  return { name: db.name, version: db.version, stores };
}

function deleteDatabase(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(new Error(where(name) + 'cannot be deleted: ' + (request.error && request.error.message)));
    request.onblocked = () => reject(new Error(where(name) + 'is open in another page of this origin and cannot be replaced'));
  });
}

/** Recreates one database; resolves to its record count once the upgrade transaction has committed. */
async function writeDatabase(plan) {
  await deleteDatabase(plan.name);
  return new Promise((resolve, reject) => {
    let failure = null;
    let upgraded = false;
    let written = 0;
    const request = indexedDB.open(plan.name, plan.version);
    // Stores, indexes and records go in within the version-change transaction: all or nothing.
    request.onupgradeneeded = () => {
      upgraded = true;
      const db = request.result;
      let storeName;
      try {
        for (const store of plan.stores) {
          storeName = store.name;
          const objectStore = db.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
          for (const index of store.indexes) {
            const indexPath = index.keyPathArray != null ? index.keyPathArray : index.keyPath;
            objectStore.createIndex(index.name, indexPath, { unique: Boolean(index.unique), multiEntry: Boolean(index.multiEntry) });
          }
          store.records.forEach((record, i) => {
            const add = own(record, 'key') ? objectStore.add(record.value, record.key) : objectStore.add(record.value);
            add.onsuccess = () => { written++; };
            add.onerror = () => {
              failure = failure || new Error(where(plan.name, store.name) + 'record ' + i + ': ' + (add.error && add.error.message));
            };
          });
        }
      } catch (error) {
        failure = new Error(where(plan.name, storeName) + error.message);
        request.transaction.abort();
      }
    };
    // success comes after the version-change transaction has completed.
    request.onsuccess = () => {
      request.result.close();
      if (upgraded) resolve(written);
      else reject(new Error(where(plan.name) + 'was recreated by another page while it was written'));
    };
    request.onerror = (event) => {
      event.preventDefault();
      reject(failure || new Error(where(plan.name) + 'cannot be created: ' + (request.error && request.error.message)));
    };
  });
}
`;
