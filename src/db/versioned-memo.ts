/**
 * Values derived from the database, kept until its read version changes
 * (`Database.readVersion`: every commit of this process, and on SQLite every commit to the
 * file by any connection). The version is read before the value is computed, so a value is
 * never filed under a version older than the data it came from. Where the database has no
 * read version (PostgreSQL), there is no memo: callers compute every time.
 */
export interface VersionedMemo<T> {
  /**
   * The value kept for `key` under the current version, else `compute`'s, kept from now on.
   * `compute` may `peek` at other values kept under that same version (one version read for all).
   */
  get(key: string, compute: (peek: (key: string) => T | undefined) => Promise<T>): Promise<T>;
}

export function createVersionedMemo<T>(readVersion: (() => string) | undefined, maxEntries = 1_000): VersionedMemo<T> | undefined {
  if (readVersion === undefined) return undefined;
  const entries = new Map<string, { version: string; value: T }>();
  return {
    async get(key, compute) {
      const version = readVersion();
      const known = entries.get(key);
      if (known !== undefined && known.version === version) return known.value;
      const value = await compute((other) => {
        const entry = entries.get(other);
        return entry !== undefined && entry.version === version ? entry.value : undefined;
      });
      entries.delete(key);
      entries.set(key, { version, value });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}
