// The floor planner: each documented rule, its text handling, and its pinned numbers on the example.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCasesAgainstCatalog, loadCases } from '../../src/config/intent-cases.js';
import { catalogEntries, loadCatalog } from '../../src/config/intent-catalog.js';
import { planFloor, rankCapabilities } from '../../src/intents/floor.js';
import { fillParams } from '../../src/intents/floor-params.js';
import { idTokens, tokens } from '../../src/intents/floor-text.js';
import { scoreIntentRun } from '../../src/intents/metrics.js';
import type { CatalogEntry } from '../../src/config/intent-types.js';

const ROOT = resolve(import.meta.dirname, '../..');
const catalog: CatalogEntry[] = [
  {
    id: 'deploy.release',
    description: 'Deploy a version of a service to an environment.',
    systems: ['argocd'],
    keywords: ['ship'],
    parameters: {
      type: 'object',
      required: ['service', 'environment'],
      properties: { service: { type: 'string' }, environment: { type: 'string', enum: ['staging', 'production'] }, version: { type: 'string', default: 'latest' } },
    },
  },
  { id: 'deploy.rollback', description: 'Roll a service back.', systems: ['argocd'], keywords: ['revert'], parameters: { type: 'object', required: ['service'], properties: { service: { type: 'string' } } } },
  {
    id: 'message.send',
    description: 'Post a message to a channel.',
    systems: ['slack', 'teams'],
    keywords: ['tell'],
    parameters: {
      type: 'object',
      required: ['system', 'channel', 'text'],
      properties: { system: { type: 'string', enum: ['slack', 'teams'] }, channel: { type: 'string', pattern: '^#[a-z]+$' }, text: { type: 'string' } },
    },
  },
  { id: 'access.grant', description: 'Grant a role.', systems: ['okta'], requires: ['admin'], parameters: { type: 'object', properties: {} } },
  { id: 'pr.merge', description: 'Merge a pull request.', systems: ['github'], parameters: { type: 'object', required: ['number'], properties: { number: { type: 'integer' } } } },
  { id: 'pr.close', description: 'Close a pull request.', systems: ['github'], parameters: { type: 'object', properties: {} } },
  { id: 'issue.close', description: 'Close an issue.', systems: ['jira'], parameters: { type: 'object', properties: {} } },
];
const ctx = { services: ['checkout', 'ledger'], connected_systems: ['slack'], permissions: ['developer'] };
const plan = (utterance: string, context: Record<string, unknown> = ctx) => planFloor({ utterance, context, catalog });

describe('floor text', () => {
  it('stems Latin words, drops stopwords and numbers, splits ids, makes CJK bigrams', () => {
    expect(tokens('Please deploy the services, 42 times!')).toEqual(['deploy', 'service', 'time']);
    expect(idTokens('deploy.rollBack')).toEqual(['deploy', 'roll', 'back']);
    expect(tokens('跑一版排程')).toEqual(['跑一', '一版', '版排', '排程']);
    expect(tokens('run 排程 now')).toEqual(['run', '排程', 'now']);
  });
});

describe('floor rules', () => {
  it('calls with arguments from the words: enum, context list, default', () => {
    expect(plan('deploy checkout to staging')).toEqual({ behavior: 'call', calls: [{ capability: 'deploy.release', params: { service: 'checkout', environment: 'staging', version: 'latest' } }], via: 'rules' });
  });
  it('last id segment and keywords outweigh the shared namespace', () => {
    const ranked = rankCapabilities('ship checkout', catalog).map((r) => [r.entry.id, r.score]);
    expect(ranked.slice(0, 2)).toEqual([['deploy.release', 3], ['deploy.rollback', 0]]);
    expect(rankCapabilities('deploy it', catalog).slice(0, 2).map((r) => r.score)).toEqual([3, 2]);
  });
  it('refuses when nothing scores 3', () => {
    expect(plan('drop the database')).toMatchObject({ behavior: 'refuse', reason: /No capability/ });
  });
  it('asks when capabilities tie', () => {
    expect(plan('close 12')).toMatchObject({ behavior: 'clarify', question: 'Do you mean pr.close or issue.close?' });
  });
  it('refuses when the user lacks a required permission', () => {
    expect(plan('grant me a role')).toMatchObject({ behavior: 'refuse', reason: 'access.grant requires admin, which this user does not have.' });
    expect(plan('grant me a role', { permissions: ['admin'] })).toMatchObject({ behavior: 'call' });
  });
  it('asks for a missing required value instead of guessing', () => {
    expect(plan('deploy checkout')).toMatchObject({ behavior: 'clarify', question: 'Which environment should deploy.release use?' });
  });
  it('routes to the one connected system, reads patterns and quoted text, ignores quotes when scoring', () => {
    expect(plan('tell #ops "deploy staging done"')).toEqual({ behavior: 'call', calls: [{ capability: 'message.send', params: { system: 'slack', channel: '#ops', text: 'deploy staging done' } }], via: 'rules' });
    expect(plan('tell #ops "done"', { connected_systems: ['slack', 'teams'] })).toMatchObject({ behavior: 'clarify', question: /system/ });
    expect(plan('tell #ops on teams "done"', { connected_systems: ['slack', 'teams'] })).toMatchObject({ behavior: 'call', calls: [{ params: { system: 'teams' } }] });
  });
  it('fills from the previous call and context scalars', () => {
    expect(plan('revert it', { previous_call: { capability: 'deploy.release', params: { service: 'ledger' } } })).toMatchObject({ behavior: 'call', calls: [{ capability: 'deploy.rollback', params: { service: 'ledger' } }] });
    expect(fillParams({ type: 'object', properties: { project: { type: 'string' } } }, 'x', { project: 'PAY' }).params).toEqual({ project: 'PAY' });
    expect(fillParams({ type: 'object', properties: { n: { type: 'integer' } } }, 'merge #418 (PAY-12, v2.1)', {}).params).toEqual({ n: 418 });
  });
  it('splits steps and keeps them in order; a step that asks makes the whole decision ask', () => {
    expect(plan('deploy checkout to staging, then merge 7')).toMatchObject({
      behavior: 'call',
      calls: [{ capability: 'deploy.release' }, { capability: 'pr.merge', params: { number: 7 } }],
    });
    expect(plan('deploy checkout to staging and then merge it')).toMatchObject({ behavior: 'clarify', question: /number/ });
    expect(plan('ship checkout and ledger to staging')).toMatchObject({ behavior: 'call', calls: [{ capability: 'deploy.release' }] });
  });
});

describe('floor on the example set (the numbers in examples/intents/README.md)', () => {
  it('gives these exact counts', () => {
    const cat = loadCatalog('examples/intents/catalog', ROOT);
    const loaded = loadCases(resolve(ROOT, 'examples/intents/intent-cases.jsonl'), ROOT);
    checkCasesAgainstCatalog(loaded, cat);
    const entries = catalogEntries(cat);
    const runs = loaded.cases.map((c) => ({ id: c.id, decision: planFloor({ utterance: c.utterance, context: c.context, catalog: entries }), duration_ms: 0 }));
    const { metrics, scores } = scoreIntentRun(loaded.cases, runs, cat);
    const o = metrics.overall;
    expect([o.selection, o.params, o.clarification, o.false_clarification, o.hallucination, o.overreach, o.refusal].map((f) => `${f.n}/${f.d}`)).toEqual(['16/21', '14/16', '4/6', '5/21', '0/16', '0/3', '2/3']);
    expect(metrics.by_kind.direct!.selection).toMatchObject({ n: 5, d: 5 });
    expect(metrics.by_kind.synonyms!.selection).toMatchObject({ n: 2, d: 5 });
    expect(scores.filter((s) => s.failed.length > 0).map((s) => s.id)).toEqual(['e-006', 'e-008', 'e-009', 'e-010', 'e-016', 'e-021', 'e-022', 'e-025', 'e-026', 'e-030']);
  });
});
