// The real-world corpus (../shared/compat, read in place, never copied): every SKILL.md and README.md must
// parse losslessly, take edits that change only their target, and score without surprises.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/skill/edits.js';
import { parseSkill, serializeSkill, type Section, type SkillDocument } from '../../src/skill/markdown.js';
import { matchSections, sectionPath } from '../../src/skill/sections.js';
import { scoreStructure } from '../../src/skill/structure.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const compatDir = path.resolve(repoRoot, '../shared/compat');
const files = fg.sync('**/{SKILL,README}.md', { cwd: compatDir }).sort();

/** A name for the section that findSection resolves to exactly it. */
function nameOf(doc: SkillDocument, s: Section): string {
  return matchSections(doc, s.title).length === 1 ? s.title : sectionPath(doc, s);
}

function pick(doc: SkillDocument): Section[] {
  const named = doc.sections.filter((s) => s.title !== '' && matchSections(doc, nameOf(doc, s)).length === 1);
  const chosen = [named[0], named[Math.floor(named.length / 2)], named[named.length - 1]];
  return [...new Set(chosen.filter((s): s is Section => s !== undefined))];
}

/** Line numbers inside fenced code, by a deliberately simple scanner independent of the parser's. */
function fencedLines(text: string): Set<number> {
  const inside = new Set<number>();
  let open: string | null = null;
  text.split('\n').forEach((line, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/.exec(line.replace(/\r$/, ''));
    if (open === null && m) open = m[1]!;
    else if (open !== null && m && m[1]![0] === open[0] && m[1]!.length >= open.length && m[2]!.trim() === '') {
      inside.add(i + 1);
      open = null;
      return;
    }
    if (open !== null) inside.add(i + 1);
  });
  return inside;
}

describe('compat corpus', () => {
  it('finds exactly the real headings of a bilingual skill with # comments in its code blocks', () => {
    const doc = parseSkill(readFileSync(path.join(compatDir, 'auto-improvement-orchestrator/skills/improvement-learner/SKILL.md'), 'utf8'));
    expect(doc.sections.map((s) => `${s.level} ${s.title}`)).toEqual([
      '1 Improvement Learner',
      '2 When to Use',
      '2 When NOT to Use',
      '2 Why 9 Dimensions Instead of a Single Score',
      '2 9 Evaluation Dimensions',
      '2 Why LLM Judge for Accuracy Instead of Regex',
      '2 Three-Layer Memory',
      '2 CLI',
      '3 --mock 模式 vs 默认 LLM Judge',
      '2 Output Artifacts',
      '2 Related Skills',
    ]);
    expect(doc.frontmatter!.data!.triggers).toContain('质量评分');
  });

  it('is present: both skill sets, SKILL.md and README.md files', () => {
    expect(files.length).toBeGreaterThanOrEqual(31);
    expect(files).toContain('anthropic-skills/claude-api/SKILL.md');
    expect(files).toContain('auto-improvement-orchestrator/skills/benchmark-store/data/fixtures/level3-skill/README.md');
    expect(files).toContain('README.md');
  });
});

describe.each(files)('%s', (file) => {
  const bytes = readFileSync(path.join(compatDir, file));
  const text = bytes.toString('utf8');
  const doc = parseSkill(text);

  it('parses and serialises back byte for byte', () => {
    expect(Buffer.from(serializeSkill(doc), 'utf8').equals(bytes)).toBe(true);
    expect(doc.sections.length).toBeGreaterThan(0);
    for (const s of doc.sections) expect(s.heading).toMatch(/^ {0,3}#{1,6}( |\n)/);
    expect(doc.unclosedFence).toBeNull();
    const fenced = fencedLines(text);
    for (const s of doc.sections) expect(fenced.has(s.line), `${s.title} at line ${s.line} is inside a code fence`).toBe(false);
    const parsedFenced = new Set(doc.codeBlocks.flatMap((b) => Array.from({ length: b.endLine - b.startLine + 1 }, (_, i) => b.startLine + i)));
    expect([...parsedFenced].sort((a, b) => a - b)).toEqual([...fenced].sort((a, b) => a - b));
  });

  it('replace_section (first, middle, last) changes only that section', () => {
    const targets = pick(doc);
    expect(targets.length).toBeGreaterThan(0);
    for (const s of targets) {
      const body = `Replaced body of ${s.title}.\n\n- point`;
      const out = applyEdit(text, { type: 'replace_section', section: nameOf(doc, s), body });
      expect(out.slice(0, s.bodyStart)).toBe(text.slice(0, s.bodyStart));
      expect(out.endsWith(text.slice(s.end))).toBe(true);
      const middle = out.slice(s.bodyStart, out.length - (text.length - s.end));
      expect(middle.trim()).toBe(body);
      const after = parseSkill(out);
      const subsections = doc.sections.filter((x) => x.start > s.start && x.end <= s.end).length;
      expect(after.sections.length).toBe(doc.sections.length - subsections);
    }
  });

  it('replace_section keep_subsections keeps every subsection', () => {
    const s = pick(doc)[0]!;
    const out = applyEdit(text, { type: 'replace_section', section: nameOf(doc, s), body: 'Intro only.', keep_subsections: true });
    expect(out.slice(0, s.bodyStart)).toBe(text.slice(0, s.bodyStart));
    expect(out.endsWith(text.slice(s.contentEnd))).toBe(true);
  });

  it('insert_before_section and append_section keep every other byte', () => {
    const s = pick(doc)[1] ?? doc.sections[0]!;
    const inserted = applyEdit(text, { type: 'insert_before_section', section: nameOf(doc, s), heading: 'Whetstone Inserted', body: 'x' });
    expect(inserted.startsWith(text.slice(0, s.start))).toBe(true);
    expect(inserted.endsWith(text.slice(s.start))).toBe(true);
    const appended = applyEdit(text, { type: 'append_section', heading: 'Whetstone Appended', body: 'y' });
    expect(appended.startsWith(text)).toBe(true);
    expect(parseSkill(appended).sections.at(-1)!.title).toBe('Whetstone Appended');
  });

  it('update_frontmatter edits only the named keys (or creates the block) and never the body', () => {
    const fm = doc.frontmatter;
    if (fm === null) {
      const created = applyEdit(text, { type: 'update_frontmatter', set: { name: 'x' } });
      expect(created).toBe(`---\nname: x\n---\n${text}`);
      return;
    }
    const added = applyEdit(text, { type: 'update_frontmatter', set: { x_whetstone: 1 } });
    expect(parseSkill(added).frontmatter!.yaml).toBe(`${fm.yaml}x_whetstone: 1\n`);
    expect(added.slice(parseSkill(added).bodyStart)).toBe(text.slice(doc.bodyStart));

    const out = applyEdit(text, { type: 'update_frontmatter', set: { description: 'New: description. Use when testing.' } });
    const next = parseSkill(out);
    expect(out.slice(next.bodyStart)).toBe(text.slice(doc.bodyStart));
    expect(next.frontmatter!.data).toEqual({ ...fm.data, description: 'New: description. Use when testing.' });
    // The first changed byte is on the description's own line: nothing before it moved.
    const [oldYaml, newYaml] = [fm.yaml, next.frontmatter!.yaml];
    let p = 0;
    while (oldYaml[p] === newYaml[p]) p++;
    let q = 0;
    while (q < oldYaml.length - p && oldYaml[oldYaml.length - 1 - q] === newYaml[newYaml.length - 1 - q]) q++;
    const changed = oldYaml.slice(oldYaml.lastIndexOf('\n', p - 1) + 1, oldYaml.length - q);
    expect(changed).toMatch(/^description:/);
    // ...and everything it replaced belongs to the description entry (its continuation lines are indented).
    for (const line of changed.split('\n').slice(1)) expect(line).toMatch(/^(?:\s.*)?$/);
  });

  it('scores in [0, 1], and every proposed fix makes its dimension pass', () => {
    const report = scoreStructure(text);
    expect(report.dimensions).toHaveLength(9);
    expect(report.total).toBeGreaterThanOrEqual(0);
    expect(report.total).toBeLessThanOrEqual(1);
    for (const d of report.dimensions) {
      expect(d.score).toBeGreaterThanOrEqual(0);
      expect(d.score).toBeLessThanOrEqual(1);
      expect(d.finding.length).toBeGreaterThan(0);
      if (d.score === 1) {
        expect(d.fix).toBeUndefined();
        continue;
      }
      expect(d.fix, `${d.id} has no fix`).toBeDefined();
      const fixed = applyEdit(text, d.fix!);
      expect(scoreStructure(fixed).dimensions.find((x) => x.id === d.id)!.score, d.id).toBe(1);
    }
  });
});
