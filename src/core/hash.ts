// The hashes whetstone records (artifacts' inputs, registered settings, targets, suites): `sha256:<hex>` of
// bytes, and the canonical JSON that makes equal values hash equally whatever their key order. In core, so
// the config layer hashes what it registers without reaching up into the state layer (src/state/artifact-io.ts
// hashes artifacts with the same two and hands them on to its callers).
import { createHash } from 'node:crypto';

export function sha256(data: string | Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** Sorted-key JSON, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
