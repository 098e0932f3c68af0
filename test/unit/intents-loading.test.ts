// Loading intent cases (JSONL) and the capability catalogue: shapes accepted, errors at file:line:col.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../src/core/errors.js';
import { checkCasesAgainstCatalog, loadCases } from '../../src/config/intent-cases.js';
import { loadCatalog } from '../../src/config/intent-catalog.js';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = () => tempDir('whet-intents-load-');
const line = (o: Record<string, unknown>) => JSON.stringify(o);
const good = { id: 'a-1', kind: 'direct', utterance: 'deploy  checkout tp staging ', context: { project: 'PAY' }, expect: { behavior: 'call', capability: 'deploy.release', params: { environment: 'staging' } }, note: 'n' };

function casesFile(text: string): { dir: string; file: string } {
  const dir = tmp();
  const file = join(dir, 'cases.jsonl');
  writeFileSync(file, text);
  return { dir, file };
}
function loadError(text: string): ConfigError {
  const { dir, file } = casesFile(text);
  try {
    loadCases(file, dir);
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadCases', () => {
  it('keeps the utterance verbatim, skips blank lines and a BOM, records lines', () => {
    const { dir, file } = casesFile(`\uFEFF${line(good)}\n\n${line({ ...good, id: 'a-2', expect: { behavior: '澄清', capability: null } })}\r\n`);
    const loaded = loadCases(file, dir);
    expect(loaded.cases.map((c) => [c.id, c.line, c.expect.behavior])).toEqual([['a-1', 1, 'call'], ['a-2', 3, 'clarify']]);
    expect(loaded.cases[0]!.utterance).toBe('deploy  checkout tp staging ');
    expect(loaded.cases[0]!.expect.params).toEqual({ environment: 'staging' });
    expect(loaded.cases[1]!.expect).toEqual({ behavior: 'clarify', capability: null, params: {} });
    expect(loaded.file).toBe('cases.jsonl');
    expect(loaded.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(loaded.at(1, ['expect', 'behavior'])).toMatch(/^cases\.jsonl:3:\d+$/);
  });

  it('points at the line and column of invalid JSON', () => {
    const e = loadError(`${line(good)}\n{"id": "x", }\n`);
    expect(e.message).toMatch(/^cases\.jsonl:2:\d+: not valid JSON/);
  });

  it('points at the offending value inside the line', () => {
    const text = line({ ...good, expect: { behavior: 'execute', capability: 'deploy.release' } });
    const col = text.indexOf('"execute"') + 1;
    expect(loadError(`${text}\n`).message).toBe(`cases.jsonl:1:${col} expect.behavior: unknown behavior "execute"; expected call, clarify or refuse`);
  });

  it('reports every problem of the file at once', () => {
    const e = loadError([line({ ...good, id: '' }), line({ ...good, id: 'b', utterance: 7 }), line({ id: 'c', kind: 'direct', utterance: 'x' })].join('\n'));
    expect(e).toBeInstanceOf(ConfigErrors);
    const msgs = (e as ConfigErrors).problems.map((p) => p.message);
    expect(msgs[0]).toMatch(/^cases\.jsonl:1:\d+ id: /);
    expect(msgs[1]).toMatch(/^cases\.jsonl:2:\d+ utterance: /);
    expect(msgs[2]).toMatch(/^cases\.jsonl:3:1 expect: /);
  });

  it('duplicate ids are an error naming both lines', () => {
    const e = loadError(`${line(good)}\n${line(good)}\n`);
    expect(e.message).toMatch(/^cases\.jsonl:2:\d+ id: duplicate case id "a-1" \(first used on line 1\)/);
  });

  it('a call case must name its capability; matchers are checked at load', () => {
    expect(loadError(line({ ...good, expect: { behavior: 'call', capability: null } })).message).toMatch(/cases\.jsonl:1:\d+ expect\.capability: a case expecting a call names the capability/);
    expect(loadError(line({ ...good, expect: { behavior: 'call', capability: 'x', params: { a: { $regex: 'x' } } } })).message).toMatch(/expect\.params: a: unknown matcher \$regex/);
  });

  it('a line that is not an object, and an empty file, are errors', () => {
    expect(loadError('[1,2]\n').message).toBe('cases.jsonl:1:1: each line must be one JSON object');
    expect(loadError('\n\n').message).toMatch(/holds no cases/);
  });

  it('unknown keys and ignored expectations are warnings', () => {
    const { dir, file } = casesFile(`${line({ ...good, tags: ['x'] })}\n${line({ ...good, id: 'r', expect: { behavior: 'refuse', capability: 'x', params: { a: 1 } } })}\n`);
    const w = loadCases(file, dir).warnings;
    expect(w[0]).toMatch(/cases\.jsonl:1:\d+: unknown key "tags" ignored/);
    expect(w.some((x) => /expect\.capability is not scored/.test(x))).toBe(true);
    expect(w.some((x) => /expect\.params is not scored/.test(x))).toBe(true);
  });
});

describe('loadCatalog', () => {
  it('loads the example folder: YAML lists, {capabilities}, a single capability, and JSON', () => {
    const c = loadCatalog('examples/intents/catalog', ROOT);
    expect(c.capabilities.map((x) => x.id)).toEqual([
      'access.grant', 'pr.merge', 'pr.request_review', 'ci.run', 'message.send', 'incident.page',
      'deploy.release', 'deploy.rollback', 'logs.search', 'issue.create', 'issue.search', 'issue.close',
    ]);
    expect(c.byId.get('access.grant')).toMatchObject({ requires: ['admin'], systems: ['okta'] });
    expect(c.byId.get('message.send')!.where).toMatch(/comms\.json:\d+:\d+$/);
    expect(c.validators.get('deploy.release')!({ service: 'a', environment: 'staging' })).toBe(true);
    expect(c.validators.get('deploy.release')!({ service: 'a', environment: 'prod' })).toBe(false);
    expect(c.warnings).toEqual([]);
    expect(c.hash).toMatch(/^sha256:/);
  });

  // loadYaml shows paths relative to the process's cwd, which is not the temp dir here.
  it('reports duplicates across files, invalid schemas and non-object schemas at their location', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'caps'));
    writeFileSync(join(dir, 'caps', 'a.yaml'), 'id: x.one\ndescription: One.\nsystems: [s]\n');
    writeFileSync(join(dir, 'caps', 'b.yaml'), [
      '- id: x.one',
      '  description: Again.',
      '  systems: [s]',
      '- id: x.two',
      '  description: Bad schema.',
      '  systems: [s]',
      '  parameters: {type: object, properties: {n: {type: integr}}}',
      '- id: x.three',
      '  description: Not an object.',
      '  systems: [s]',
      '  parameters: {type: string}',
      '- id: x.four',
      '  description: ""',
      '  systems: []',
    ].join('\n'));
    let err: ConfigErrors | undefined;
    try {
      loadCatalog('caps', dir);
    } catch (e) {
      err = e as ConfigErrors;
    }
    const msgs = err!.problems.map((p) => p.message);
    expect(msgs).toContainEqual(expect.stringMatching(/caps\/b\.yaml:1:7 \[0\]\.id: duplicate capability id "x\.one" \(first defined at \S*caps\/a\.yaml:1:1\)/));
    expect(msgs).toContainEqual(expect.stringMatching(/caps\/b\.yaml:7:15 \[1\]\.parameters: invalid JSON Schema/));
    expect(msgs).toContainEqual(expect.stringMatching(/caps\/b\.yaml:11:15 \[2\]\.parameters: must be an object schema/));
    expect(msgs).toContainEqual(expect.stringMatching(/caps\/b\.yaml:13:16 \[3\]\.description: must not be empty/));
    expect(msgs).toContainEqual(expect.stringMatching(/caps\/b\.yaml:14:12 \[3\]\.systems: list at least one system/));
  });

  it('a missing path, an empty folder and an unknown shape are errors; unknown keys warn', () => {
    const dir = tmp();
    expect(() => loadCatalog('nope', dir)).toThrow(/nope: capability catalogue not found/);
    mkdirSync(join(dir, 'empty'));
    expect(() => loadCatalog('empty', dir)).toThrow(/no \.yaml, \.yml or \.json files/);
    writeFileSync(join(dir, 'odd.yaml'), 'name: x\n');
    expect(() => loadCatalog('odd.yaml', dir)).toThrow(/odd\.yaml:1:1: expected a capability, a list of capabilities/);
    writeFileSync(join(dir, 'w.json'), JSON.stringify([{ id: 'a', description: 'A.', systems: ['s'], owner: 'me' }]));
    const c = loadCatalog('w.json', dir);
    expect(c.warnings[0]).toMatch(/w\.json:1:\d+: capability a: unknown key "owner" ignored/);
    expect(c.byId.get('a')!.parameters).toEqual({ type: 'object', properties: {} });
  });
});

describe('cases against the catalogue', () => {
  it('an expected capability missing from the catalogue is an error at the case', () => {
    const catalog = loadCatalog('examples/intents/catalog', ROOT);
    const { dir, file } = casesFile(`${line({ ...good, expect: { behavior: 'call', capability: 'deploy.ship' } })}\n`);
    const loaded = loadCases(file, dir);
    expect(() => checkCasesAgainstCatalog(loaded, catalog)).toThrow(/cases\.jsonl:1:\d+ expect\.capability: case a-1 expects capability "deploy\.ship", which is not in the catalogue/);
  });
  it('an expected key the closed schema forbids is an error', () => {
    const catalog = loadCatalog('examples/intents/catalog', ROOT);
    const { dir, file } = casesFile(`${line({ ...good, expect: { behavior: 'call', capability: 'deploy.release', params: { env: 'staging' } } })}\n`);
    expect(() => checkCasesAgainstCatalog(loadCases(file, dir), catalog)).toThrow(/expect\.params\.env: case a-1 expects parameter "env", which deploy\.release's schema does not allow/);
  });
  it('the example case set is consistent with the example catalogue', () => {
    const catalog = loadCatalog('examples/intents/catalog', ROOT);
    const loaded = loadCases(join(ROOT, 'examples/intents/intent-cases.jsonl'), ROOT);
    expect(loaded.cases).toHaveLength(30);
    expect(checkCasesAgainstCatalog(loaded, catalog)).toEqual([]);
    expect(new Set(loaded.cases.map((c) => c.kind)).size).toBe(8);
  });
});
