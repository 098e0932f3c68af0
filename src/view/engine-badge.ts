// Which engine answered a run, for the badge the viewer puts on every run (issue 41): a run on the offline
// mock engine must never look like one on a model. An evaluation's run.json names its engine; a loop run's
// says only whether it is the mock, and its first measurement's artifact names the rest.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../state/read-lenient.js';

export interface EngineBadge {
  /** The engine's type as run.json or the first measurement recorded it (mock, claude, openai, …). */
  type: string;
  mock: boolean;
}

/** The engine named in the first 64 KiB of an artifact (its header: `engine` comes before the task rows). */
function engineInArtifact(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return /"engine":\s*\{\s*"type":\s*"([^"\\]{1,64})"/.exec(buf.toString('utf8', 0, n))?.[1];
  } finally {
    closeSync(fd);
  }
}

/** A run's engine: run.json's (an evaluation records it), else a loop run's mock flag or first measurement. */
export function engineOf(runDir: string, m: Json | undefined): EngineBadge | null {
  if (typeof m?.engine?.type === 'string') return { type: m.engine.type, mock: m.engine.type === 'mock' };
  if (m?.mock === true) return { type: 'mock', mock: true };
  const its = readdirSync(runDir).filter((d) => /^iter-\d{3,}$/.test(d)).sort();
  for (const it of its) {
    for (const f of ['baseline.json', 'evaluation.json']) {
      const t = engineInArtifact(join(runDir, it, f));
      if (t) return { type: t, mock: t === 'mock' };
    }
  }
  return null;
}

