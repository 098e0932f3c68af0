// Loads the capability catalogue from one YAML/JSON file or a folder of them (recursive, sorted). A file
// holds one capability, a list, or `{capabilities: [...]}`. Every problem is reported as
// `file:line:col path: message`; every `parameters` schema is compiled by Ajv at load time, so an
// invalid schema is a load error and never a surprise mid-run. Unknown keys are warnings, not errors:
// catalogues written for a runtime carry fields (owners, versions) the eval does not need.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import { ConfigError, ConfigErrors, configProblems } from '../core/errors.js';
import { displayPath, formatPath, loadYaml, type LoadedYaml } from './load-yaml.js';
import type { Capability, CatalogEntry } from './intent-types.js';
import { compileParameters } from './intent-validate-call.js';

export interface Catalog {
  capabilities: Capability[];
  byId: ReadonlyMap<string, Capability>;
  validators: ReadonlyMap<string, ValidateFunction>;
  /** What was loaded, as shown in reports. */
  source: string;
  /** sha256 over every file's relative path and bytes. */
  hash: string;
  warnings: string[];
}

const KNOWN_KEYS = new Set(['id', 'description', 'systems', 'parameters', 'keywords', 'requires', 'title']);

const capabilitySchema = z.looseObject({
  id: z.string().regex(/^\S+$/, 'must be non-empty and contain no spaces'),
  description: z.string().trim().min(1, 'must not be empty'),
  systems: z.array(z.string().min(1)).min(1, 'list at least one system that offers it'),
  parameters: z.record(z.string(), z.unknown()).optional(),
  keywords: z.array(z.string().min(1)).optional(),
  requires: z.array(z.string().min(1)).optional(),
});

const EMPTY_PARAMS = { type: 'object', properties: {} };

export function loadCatalog(path: string, cwd: string): Catalog {
  const abs = resolve(cwd, path);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new ConfigError('capability catalogue not found', displayPath(abs, cwd));
  }
  const files = isDir ? fastGlob().sync(['**/*.yaml', '**/*.yml', '**/*.json'], { cwd: abs, absolute: true, onlyFiles: true }).sort() : [abs];
  if (files.length === 0) throw new ConfigError('no .yaml, .yml or .json files in the capability catalogue folder', displayPath(abs, cwd));

  const problems: ConfigError[] = [];
  const warnings: string[] = [];
  const capabilities: Capability[] = [];
  const validators = new Map<string, ValidateFunction>();
  const byId = new Map<string, Capability>();
  const hash = createHash('sha256');

  for (const file of files) {
    let loaded: LoadedYaml<unknown>;
    try {
      loaded = loadYaml(file, z.unknown(), 'capability catalogue');
    } catch (err) {
      // One unreadable file must not hide the other files' problems: all are reported in one pass.
      if (err instanceof ConfigErrors) problems.push(...err.problems);
      else if (err instanceof ConfigError) problems.push(err);
      else throw err;
      continue;
    }
    hash.update(`${relative(isDir ? abs : cwd, file)}\u0000`).update(loaded.bytes);
    const raw = loaded.value;
    let items: { value: unknown; path: (string | number)[] }[];
    if (Array.isArray(raw)) items = raw.map((value, i) => ({ value, path: [i] }));
    else if (raw && typeof raw === 'object' && Array.isArray((raw as { capabilities?: unknown }).capabilities)) {
      items = ((raw as { capabilities: unknown[] }).capabilities).map((value, i) => ({ value, path: ['capabilities', i] }));
    } else if (raw && typeof raw === 'object' && 'id' in raw) items = [{ value: raw, path: [] }];
    else {
      problems.push(new ConfigError('expected a capability, a list of capabilities, or {capabilities: [...]}', loaded.at([])));
      continue;
    }
    for (const { value, path } of items) {
      const parsed = capabilitySchema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const p = [...path, ...issue.path.filter((x): x is string | number => typeof x !== 'symbol')];
          problems.push(new ConfigError(issue.message, loaded.at(p), formatPath(p)));
        }
        continue;
      }
      const c = parsed.data;
      const where = loaded.at(path);
      for (const k of Object.keys(c)) if (!KNOWN_KEYS.has(k)) warnings.push(`${loaded.at([...path, k])}: capability ${c.id}: unknown key "${k}" ignored`);
      const parameters = c.parameters ?? EMPTY_PARAMS;
      if (parameters.type !== 'object') {
        problems.push(new ConfigError('must be an object schema (type: object): tools take named arguments', loaded.at([...path, 'parameters']), formatPath([...path, 'parameters'])));
        continue;
      }
      try {
        validators.set(c.id, compileParameters(parameters));
      } catch (err) {
        problems.push(new ConfigError(`invalid JSON Schema: ${(err as Error).message}`, loaded.at([...path, 'parameters']), formatPath([...path, 'parameters'])));
        continue;
      }
      const prior = byId.get(c.id);
      if (prior) {
        problems.push(new ConfigError(`duplicate capability id "${c.id}" (first defined at ${prior.where})`, loaded.at([...path, 'id']), formatPath([...path, 'id'])));
        continue;
      }
      const cap: Capability = { id: c.id, description: c.description.trim(), systems: c.systems, parameters, keywords: c.keywords ?? [], requires: c.requires ?? [], where };
      byId.set(c.id, cap);
      capabilities.push(cap);
    }
  }
  if (problems.length > 0) throw configProblems(problems);
  if (capabilities.length === 0) throw new ConfigError('the capability catalogue defines no capabilities', displayPath(abs, cwd));
  return { capabilities, byId, validators, source: displayPath(abs, cwd), hash: `sha256:${hash.digest('hex')}`, warnings };
}

/** The catalogue as engines receive it. */
export function catalogEntries(catalog: Pick<Catalog, 'capabilities'>): CatalogEntry[] {
  return catalog.capabilities.map((c) => ({
    id: c.id,
    description: c.description,
    systems: c.systems,
    parameters: c.parameters,
    ...(c.keywords.length > 0 ? { keywords: c.keywords } : {}),
    ...(c.requires.length > 0 ? { requires: c.requires } : {}),
  }));
}

/** Builds a catalogue from entries in memory (tests, the evaluate stage later). */
export function catalogFromEntries(entries: CatalogEntry[], source = '(in memory)'): Catalog {
  const byId = new Map<string, Capability>();
  const validators = new Map<string, ValidateFunction>();
  const capabilities = entries.map((e, i) => {
    if (byId.has(e.id)) throw new ConfigError(`duplicate capability id "${e.id}"`, `${source}[${i}]`);
    const cap: Capability = { ...e, keywords: e.keywords ?? [], requires: e.requires ?? [], where: `${source}[${i}]` };
    byId.set(e.id, cap);
    validators.set(e.id, compileParameters(e.parameters));
    return cap;
  });
  const hash = createHash('sha256').update(JSON.stringify(entries)).digest('hex');
  return { capabilities, byId, validators, source, hash: `sha256:${hash}`, warnings: [] };
}
