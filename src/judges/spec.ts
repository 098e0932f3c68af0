// Loading judge spec files. A spec is read with the same located YAML loader as suites, so every mistake
// is reported at `file:line:col field`. Suites run the same spec on every task and every repeat, so a
// loaded spec is kept while the file's size and modification time stay the same.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadYaml } from '../config/load-yaml.js';
import { judgeSpecFileSchema, type LoadedJudgeSpec } from './spec-schema.js';

export {
  judgeSpecFileSchema,
  calibrationThresholds,
  MAX_JUDGE_TEMPERATURE,
  type JudgeSpecFile,
  type JudgeSpecFileInput,
  type LoadedJudgeSpec,
  type CalibrationThresholds,
  type Label,
} from './spec-schema.js';

const cache = new Map<string, { size: number; mtimeMs: number; loaded: LoadedJudgeSpec }>();
const CACHE_LIMIT = 64;

/** Loads and checks a judge spec file; throws a located ConfigError (exit 2) when it is wrong. */
export function loadJudgeSpec(file: string): LoadedJudgeSpec {
  const path = resolve(file);
  let stamp: { size: number; mtimeMs: number } | undefined;
  try {
    const s = statSync(path);
    stamp = { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    // loadYaml below reports the missing file with its usual message.
  }
  const hit = cache.get(path);
  if (hit && stamp && hit.size === stamp.size && hit.mtimeMs === stamp.mtimeMs) return hit.loaded;

  const y = loadYaml(path, judgeSpecFileSchema, 'judge spec');
  const loaded: LoadedJudgeSpec = {
    spec: y.value,
    path,
    dir: dirname(path),
    hash: `sha256:${createHash('sha256').update(y.bytes).digest('hex')}`,
    at: y.at,
    lineOf: y.lineOf,
  };
  if (stamp) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(path, { ...stamp, loaded });
  }
  return loaded;
}

/** The hex digest a calibration record is filed under (`sha256:` prefix dropped, lower-cased). */
export function specHashHex(hash: string): string {
  const hex = hash.replace(/^sha256:/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new RangeError(`not a sha256 content hash: ${JSON.stringify(hash)}`);
  return hex;
}
