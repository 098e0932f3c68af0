// CommonMark's HTML blocks (spec 0.31, §4.6), for the heading scan (headings.ts): inside one, a `# line` is
// HTML text, not a heading — the `<pre>` that holds a shell session with `# comments`, an HTML comment that
// spans lines, a `<details>` block. Seven kinds, by how they start and how they end:
//   1 <pre, <script, <style, <textarea      ends on the line that holds its closing tag
//   2 <!--                                  ends on the line that holds -->
//   3 <?                                    ends on the line that holds ?>
//   4 <!LETTER                              ends on the line that holds >
//   5 <![CDATA[                             ends on the line that holds ]]>
//   6 a block-level tag (<div>, </table>…)  ends at a blank line
//   7 any other complete tag alone on its line (a closing </pre> too), which cannot interrupt a paragraph;
//     ends at a blank line
// Each may be indented up to three spaces. Kinds 1–5 may end on the line they start on.

export type HtmlKind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const BLOCK_TAGS = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

const ATTRIBUTE = `\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^"'=<>\`\\s]+|'[^']*'|"[^"]*"))?`;
const OPEN_TAG = new RegExp(`^<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*\\s*/?>[ \\t]*$`);
const CLOSE_TAG = /^<\/[A-Za-z][A-Za-z0-9-]*\s*>[ \t]*$/;
const ENDS: Record<1 | 2 | 3 | 4 | 5, RegExp> = {
  1: /<\/(?:pre|script|style|textarea)>/i,
  2: /-->/,
  3: /\?>/,
  4: />/,
  5: /\]\]>/,
};

/** The kind of HTML block `text` starts, if it starts one; `inParagraph`: kind 7 cannot interrupt a paragraph. */
export function htmlBlockStart(text: string, inParagraph: boolean): HtmlKind | null {
  const m = /^ {0,3}(<.*)$/.exec(text);
  if (!m) return null;
  const s = m[1]!;
  if (/^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i.test(s)) return 1;
  if (s.startsWith('<!--')) return 2;
  if (s.startsWith('<?')) return 3;
  if (/^<![A-Za-z]/.test(s)) return 4;
  if (s.startsWith('<![CDATA[')) return 5;
  const tag = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t]|\/?>|$)/.exec(s);
  if (tag && BLOCK_TAGS.has(tag[1]!.toLowerCase())) return 6;
  // An opening <pre> (…) is kind 1 above; a closing </pre> alone on its line is kind 7, as micromark reads it.
  if (!inParagraph && (OPEN_TAG.test(s) || CLOSE_TAG.test(s))) return 7;
  return null;
}

/**
 * Whether the block of `kind` ends on this line (`text`); kinds 6 and 7 end only at a blank line, which the
 * caller sees. `from`: where to look, past the start condition on the block's first line (`<!-->` ends
 * kind 2 at once, as the spec's `<!--` then `-->` overlap says it does).
 */
export function htmlBlockEnds(kind: HtmlKind, text: string, from = 0): boolean {
  if (kind === 6 || kind === 7) return false;
  return ENDS[kind].test(text.slice(from));
}

/** Where a kind's end condition may start on its first line (after `<!--` for kind 2, `<?` for 3…). */
export function endSearchFrom(kind: HtmlKind, text: string): number {
  const at = text.indexOf('<');
  if (kind === 2) return at + 2;
  if (kind === 3) return at + 1;
  if (kind === 4 || kind === 5) return at + 2;
  return at;
}
