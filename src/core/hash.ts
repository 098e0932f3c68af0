// The hashes whetstone records (artifacts' inputs, registered settings, targets, suites): `sha256:<hex>` of
// bytes, and the canonical JSON that makes equal values hash equally whatever their key order. In core, so
// the config layer hashes what it registers without reaching up into the state layer (src/state/artifact-io.ts
// hashes artifacts with the same two and hands them on to its callers).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

export function sha256(data: string | Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** Bytes hashed per read: a 100,000-task results log (50 MB) read whole was a run's largest allocation. */
const CHUNK = 1 << 20;

/** The `sha256:` of a file's bytes and their count, read a chunk at a time: no copy of the whole file. */
export function sha256OfFile(file: string): { sha256: string; bytes: number } {
  const fd = openSync(file, 'r');
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(CHUNK);
    let bytes = 0;
    for (let n; (n = readSync(fd, buf, 0, CHUNK, null)) > 0; bytes += n) hash.update(buf.subarray(0, n));
    return { sha256: `sha256:${hash.digest('hex')}`, bytes };
  } finally {
    closeSync(fd);
  }
}

/** Sorted-key JSON, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
