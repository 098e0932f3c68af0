// Issue 41: docs that work where they are read. The installed package holds README.md, docs/ and
// CHANGELOG.md; every relative link in them must reach a file the package ships (package.json `files`, as
// `npm pack` lists it) — not the repository's AGENTS.md or a file left out of the tarball.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

/** Relative link targets of a markdown file, code spans and fenced blocks left out (as docs-links.test.ts). */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'));
}

/** The files `npm pack` would ship, without building (`--ignore-scripts`: dist/ is whatever is there). */
function packedFiles(): string[] {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || /^npm_config_cache$/i.test(k)) env[k] = v;
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, env: { ...env, npm_config_update_notifier: 'false' }, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe('the packaged docs', () => {
  it('link only to files the package ships', () => {
    const files = packedFiles();
    const shipped = new Set(files);
    // A link to a folder resolves when the package ships something in it.
    const folders = new Set(files.flatMap((f) => f.split('/').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('/'))));
    const pages = files.filter((f) => f.endsWith('.md'));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/method.md', 'docs/guides/viewer.md']));
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of links(readFileSync(join(repoRoot, page), 'utf8'))) {
        const path = posix.normalize(posix.join(dirname(page), decodeURIComponent(target.split('#')[0]!))).replace(/\/$/, '');
        checked++;
        if (!shipped.has(path) && !folders.has(path)) broken.push(`${page} → ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken, 'relative links to files the package does not ship').toEqual([]);
  });
});
