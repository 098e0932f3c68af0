// A request that failed and was retried is recorded in the results line with its cause (status, message,
// wait), redacted: the evaluation's record of a flaky endpoint is the line itself, not a bare count.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion, openaiError } from '../support/http/wire.js';
import { findFiles, snapshotTree, tempDir, whet, write } from '../support/cli.js';

const KEY = 'sk-test-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const server = useLoopbackServer();

describe('results lines of an HTTP engine', () => {
  it('keep each failed request with its redacted cause', async () => {
    let n = 0;
    server.handle((rq) =>
      n++ === 0
        ? { status: 429, headers: { 'retry-after-ms': '10' }, body: openaiError(`Slow down, ${String(rq.headers['authorization'])}`, 'requests', 'rate_limit_exceeded') }
        : { body: openaiCompletion({ content: 'Features and fixes' }) },
    );
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '---\nname: s\ndescription: d\n---\n# S\n');
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: t\n    prompt: hi\n    judge: {type: contains, expected: ["Features"]}\n');
    write(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: m, base_url: "${server.url}/v1", api_key_env: WHET_TEST_KEY}\n`);
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill'], { cwd: dir, env: { ...process.env, WHET_TEST_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    const [file] = findFiles(join(dir, 'state/runs'), 'baseline.jsonl');
    const line = JSON.parse(readFileSync(file!, 'utf8').trim());
    expect(line.status).toBe('pass');
    expect(line.failed_attempts).toHaveLength(1);
    expect(line.failed_attempts[0]).toMatchObject({ kind: 'http', status: 429 });
    expect(line.failed_attempts[0].message).toContain('Bearer [REDACTED]');
    expect(JSON.stringify(snapshotTree(join(dir, 'state')))).not.toContain(KEY);
  });
});
