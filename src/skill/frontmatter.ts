// Editing frontmatter keys without rewriting the rest of the block. Strategy:
//  1. Textual edit: when every top-level key starts at column 0 (the shape every real SKILL.md has), a key's
//     entry is its line plus any more-indented lines under it (block scalars, lists). Setting a key rewrites
//     only that entry as `yaml.stringify({key: value})`; removing deletes it; a new key is appended after the
//     last entry. Comments and blank lines at column 0 between entries stay where they are. A trailing
//     comment on a rewritten key's line goes with it.
//  2. The result is parsed again and must equal the old mapping with the change applied; if it does not (odd
//     layouts: flow maps, complex keys, anchors), fall back to yaml's Document API (doc.set / doc.delete /
//     String(doc)), which keeps comments but may re-indent or re-quote other keys.
// Nothing outside the frontmatter block is touched. With no block, a new one is created at the top.
import { isDeepStrictEqual } from 'node:util';
import { yamlLib } from '../core/lazy.js';
import { ConfigError } from '../core/errors.js';
import { splitLines, withEol } from './lines.js';
import type { SkillDocument } from './markdown.js';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export function updateFrontmatter(doc: SkillDocument, set: Record<string, YamlValue>, remove: string[] = []): string {
  const fm = doc.frontmatter;
  const keys = Object.keys(set);
  if (!fm) {
    if (keys.length === 0) return doc.text;
    const block = `---${doc.eol}${withEol(entryText(set), doc.eol)}---${doc.eol}`;
    return doc.bom + block + doc.text.slice(doc.bom.length);
  }
  if (fm.data === null) {
    throw new ConfigError(`update_frontmatter: the frontmatter is not a YAML mapping (${fm.error}); fix it with replace_text first`);
  }
  const expected: Record<string, unknown> = { ...fm.data };
  for (const k of remove) delete expected[k];
  for (const k of keys) expected[k] = set[k];
  const yaml = textualEdit(fm.yaml, doc.eol, set, remove) ?? documentEdit(fm.yaml, doc.eol, set, remove);
  const next = parseMapping(yaml) ?? {};
  if (!isDeepStrictEqual(next, expected)) {
    const viaDocument = documentEdit(fm.yaml, doc.eol, set, remove);
    if (!isDeepStrictEqual(parseMapping(viaDocument) ?? {}, expected)) {
      throw new ConfigError(`update_frontmatter: could not write keys ${keys.join(', ')} so that they read back as given`);
    }
    return splice(doc, viaDocument);
  }
  return splice(doc, yaml);
}

function splice(doc: SkillDocument, yaml: string): string {
  const fm = doc.frontmatter!;
  return doc.text.slice(0, fm.yamlStart) + yaml + doc.text.slice(fm.yamlStart + fm.yaml.length);
}

/** `key: value` lines, as yaml would write them, one line ending each. */
function entryText(values: Record<string, YamlValue>): string {
  if (Object.keys(values).length === 0) return '';
  return new (yamlLib().Document)(values).toString({ lineWidth: 0 });
}

interface Entry {
  key: string;
  start: number;
  end: number;
}

/** Null when the layout is not the plain column-0 mapping the textual edit understands. */
function textualEdit(yaml: string, eol: SkillDocument['eol'], set: Record<string, YamlValue>, remove: string[]): string | null {
  const parsed = yamlLib().parseDocument(yaml);
  if (parsed.errors.length > 0) return null;
  const contents = parsed.contents;
  if (contents !== null && !yamlLib().isMap(contents)) return null;
  const lines = splitLines(yaml);
  const keyLines: Array<{ key: string; line: number }> = [];
  for (const pair of contents?.items ?? []) {
    const node = pair.key as { range?: [number, number, number]; value?: unknown } | null;
    if (!node?.range || typeof node.value !== 'string') return null;
    const at = node.range[0];
    if (at !== 0 && yaml[at - 1] !== '\n') return null;
    keyLines.push({ key: node.value, line: lines.findIndex((l) => l.start === at) });
  }
  const entries: Entry[] = keyLines.map((k, i) => {
    let last = (keyLines[i + 1]?.line ?? lines.length) - 1;
    while (last > k.line && /^(?:[ \t]*|#.*)$/.test(lines[last]!.text)) last--;
    return { key: k.key, start: lines[k.line]!.start, end: lines[last]!.next };
  });
  let out = yaml;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const e of entries) {
    if (remove.includes(e.key) && !(e.key in set)) edits.push({ start: e.start, end: e.end, text: '' });
    else if (e.key in set) edits.push({ start: e.start, end: e.end, text: withEol(entryText({ [e.key]: set[e.key]! }), eol) });
  }
  const added = Object.fromEntries(Object.entries(set).filter(([k]) => !entries.some((e) => e.key === k)));
  if (Object.keys(added).length > 0) {
    const tailLine = entries.length > 0 ? entries[entries.length - 1]!.end : yaml.length;
    const sep = tailLine > 0 && !yaml.slice(0, tailLine).endsWith('\n') ? eol : '';
    edits.push({ start: tailLine, end: tailLine, text: sep + withEol(entryText(added), eol) });
  }
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function documentEdit(yaml: string, eol: SkillDocument['eol'], set: Record<string, YamlValue>, remove: string[]): string {
  const d = yamlLib().parseDocument(yaml);
  for (const k of remove) d.delete(k);
  for (const [k, v] of Object.entries(set)) d.set(k, v);
  return withEol(d.toString({ lineWidth: 0 }), eol);
}

function parseMapping(yaml: string): Record<string, unknown> | null {
  const d = yamlLib().parseDocument(yaml);
  if (d.errors.length > 0) return null;
  const js = d.toJS() as unknown;
  if (js === null || js === undefined) return {};
  return typeof js === 'object' && !Array.isArray(js) ? (js as Record<string, unknown>) : null;
}
