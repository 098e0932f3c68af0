// Every reference a reader can follow leads somewhere: relative links in README.md, AGENTS.md and every
// markdown page under docs/ point at files that exist (and at headings that exist, for a #fragment into
// markdown), every docs page can be reached from the README, the CLI's help names files that exist, and
// every "(docs/method.md: <heading>)" the code prints names a real heading.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, whet } from '../support/cli.js';

/** Every markdown page under docs/, at any depth, as a path from the repository root. */
function docsPages(dir = 'docs'): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docsPages(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}
const pages = docsPages();
const docs = ['README.md', 'AGENTS.md', ...pages];

/** GitHub's heading anchors: lower-cased, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6} +(.+)$/gm)) out.add(m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'));
  return out;
}

function headings(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => m[1]!.trim()));
}

/** Relative link targets of a markdown file, code spans and fenced blocks left out. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('documentation links', () => {
  it('finds the method guide and links from the README to it', () => {
    expect(docs).toContain('docs/method.md');
    expect(links(readFileSync(join(repoRoot, 'README.md'), 'utf8'))).toContain('docs/method.md');
  });

  it('reaches every page under docs/ from the README, following links', () => {
    expect(pages.length).toBeGreaterThan(15);
    const seen = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const doc = queue.shift()!;
      for (const target of links(readFileSync(join(repoRoot, doc), 'utf8'))) {
        const path = target.split('#')[0]!;
        if (path === '' || !path.endsWith('.md')) continue;
        const next = relative(repoRoot, join(repoRoot, dirname(doc), decodeURIComponent(path)));
        if (!seen.has(next) && existsSync(join(repoRoot, next))) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    for (const page of pages) expect(seen.has(page), `${page} is not reachable from README.md`).toBe(true);
  });

  it('keeps the README short: what whetstone is, the two commands, a first run and links', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(210);
    // The README's direct links name every getting-started, guide, reference and concepts page.
    const direct = new Set(links(readme).map((l) => l.split('#')[0]));
    for (const page of pages.filter((p) => /^docs\/(getting-started|guides|reference|concepts)\//.test(p))) expect(direct.has(page), page).toBe(true);
  });

  for (const doc of docs) {
    it(`${doc}: every relative link points at a file (and heading) that exists`, () => {
      const text = readFileSync(join(repoRoot, doc), 'utf8');
      for (const target of links(text)) {
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(repoRoot, doc) : join(repoRoot, dirname(doc), decodeURIComponent(path));
        expect(existsSync(file), `${doc} → ${target}`).toBe(true);
        if (fragment && file.endsWith('.md') && statSync(file).isFile()) expect(anchors(readFileSync(file, 'utf8')).has(fragment), `${doc} → ${target}`).toBe(true);
      }
    });
  }

  it('the CLI help of every command names only files that exist', async () => {
    const top = await whet(['--help'], { cwd: repoRoot });
    expect(top.code).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(10);
    const texts = [top.stdout];
    for (const c of commands) {
      const h = await whet([c, '--help'], { cwd: repoRoot });
      expect(h.code, c).toBe(0);
      texts.push(h.stdout);
    }
    const named = texts.flatMap((t) => [...t.matchAll(/(?:^|[\s(])((?:\/|\.{0,2}\/?[\w-]+\/)[\w./-]*\.md)\b/gm)].map((m) => m[1]!));
    expect(named.some((n) => n.endsWith('docs/method.md'))).toBe(true);
    for (const n of named) expect(existsSync(isAbsolute(n) ? n : join(repoRoot, n)), n).toBe(true);
  });

  it('every "(docs/method.md: Heading)" in the code names a heading of the guide', () => {
    const guide = headings(readFileSync(join(repoRoot, 'docs/method.md'), 'utf8'));
    const refs: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/docs\/method\.md: ([^)]+)\)/g)) refs.push(`${relative(repoRoot, p)}: ${m[1]}`);
      }
    };
    walk(join(repoRoot, 'src'));
    walk(join(repoRoot, 'stages'));
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const r of refs) expect(guide.has(r.slice(r.indexOf(': ') + 2)), r).toBe(true);
  });
});
