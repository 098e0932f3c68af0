// The one reading of a SKILL.md's frontmatter. Every command takes a skill's name, metadata and body from
// here: read.ts (the name every stage, report and engine uses), markdown.ts (the model the edits and the
// structure checks work on, whose headings headings.ts finds in the body after it) and the mock engine
// (the body lines it quotes). Before, three readers disagreed on the files below.
//
// The rule (what Claude Code and Codex apply, checked against CommonMark's frontmatter extension,
// micromark-extension-frontmatter, on test/fixtures/skill-corpus by test/unit/skill-corpus.test.ts):
//   - the block opens on the file's first line (after a UTF-8 BOM, if any), a line that is `---` with
//     nothing after it but spaces or tabs; CRLF and LF line endings alike;
//   - it closes on the next line that is `---` the same way (so `--- ` closes it), or a `---` that ends
//     the file without a newline; it may be empty (an empty mapping);
//   - nothing else opens or closes it: not `...` (YAML's document end, which pandoc accepts, and an older
//     reader here too), not `----`, not an indented `  ---`. Without a closing line there is no frontmatter:
//     the whole file is body, its first `---` a thematic break.
// Followed: Codex (codex-rs core/src/skills/loader.rs `extract_frontmatter`: first line `---`, the next
// `---` line closes, lines split on \n with a trailing \r dropped) and Claude Code (whose pattern is
// `^---\s*\n([\s\S]*?)---\s*\n?`). Where they differ from each other or from CommonMark, this follows
// CommonMark's extension: an indented `---` does not close (Codex trims it and takes it), an empty block is
// frontmatter (Codex refuses it as missing), and a BOM is skipped (both read the file as it is, so a BOM
// hides their block; Windows editors write one unseen, and YAML and CommonMark both skip it).
//
// The YAML is read with js-yaml's core schema (YAML 1.2's, as the yaml library's default), taken on first
// use: reading a config has loaded it already (the copy src/core/lazy.ts shares), and the mock's body lines
// do not need it.
import { basename } from 'node:path';
import { jsYamlLib as jsYaml } from '../core/lazy.js';

export interface Frontmatter {
  /** The whole block: opening line, YAML, closing line, each with its line ending. */
  raw: string;
  open: string;
  /** The YAML between the delimiters, each line with its line ending ('' when empty). */
  yaml: string;
  close: string;
  /** Offset of `yaml` in the document text. */
  yamlStart: number;
  /** The parsed mapping; null when the YAML does not parse or is not a mapping. */
  data: Record<string, unknown> | null;
  error: string | null;
}

export type FrontmatterBlock = Omit<Frontmatter, 'data' | 'error'>;

export interface SkillMdSplit {
  bom: '' | '\uFEFF';
  frontmatter: FrontmatterBlock | null;
  /** Offset where the markdown body starts (after the BOM and the frontmatter). */
  bodyStart: number;
}

/** A delimiter line's text (without its ending): `---`, then only spaces or tabs. */
const DELIMITER = /^---[ \t]*$/;

/** Where the frontmatter block is, without reading its YAML. */
export function splitSkillMd(text: string): SkillMdSplit {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const none = { bom, frontmatter: null, bodyStart: bom.length } as const;
  const start = bom.length;
  let end = lineEnd(text, start);
  // The opening line needs a line after it: a file that is only `---` is a thematic break.
  if (!DELIMITER.test(text.slice(start, contentEnd(text, end))) || end >= text.length) return none;
  const yamlStart = end + 1;
  for (let at = yamlStart; at <= text.length; at = end + 1) {
    end = lineEnd(text, at);
    if (DELIMITER.test(text.slice(at, contentEnd(text, end)))) {
      const next = Math.min(end + 1, text.length);
      return {
        bom,
        frontmatter: { raw: text.slice(start, next), open: text.slice(start, yamlStart), yaml: text.slice(yamlStart, at), close: text.slice(at, next), yamlStart },
        bodyStart: next,
      };
    }
    if (end >= text.length) break;
  }
  return none;
}

/** Offset of the `\n` ending the line that starts at `at`, or the text's length. */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl;
}
const contentEnd = (text: string, end: number): number => (end > 0 && text[end - 1] === '\r' && end < text.length ? end - 1 : end);

/** The frontmatter with its YAML read. */
export function readFrontmatter(block: FrontmatterBlock): Frontmatter {
  let data: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    const parsed = jsYaml().load(block.yaml, { schema: jsYaml().CORE_SCHEMA }) as unknown;
    if (parsed === null || parsed === undefined) data = {};
    else if (typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    else error = 'frontmatter is not a YAML mapping';
  } catch (e) {
    error = (e as Error).message.split('\n')[0] ?? String(e);
  }
  return { ...block, data, error };
}

/** A skill's name: its frontmatter `name` when that is a non-blank string, else its folder's name. */
export function nameOfSkill(frontmatter: Frontmatter | null, dir: string): string {
  const name = frontmatter?.data?.['name'];
  return typeof name === 'string' && name.trim() !== '' ? name : basename(dir);
}

/** The name of the skill whose SKILL.md is `text` in folder `dir`, by the rule above. */
export function skillNameOf(text: string, dir: string): string {
  const { frontmatter } = splitSkillMd(text);
  return nameOfSkill(frontmatter ? readFrontmatter(frontmatter) : null, dir);
}
