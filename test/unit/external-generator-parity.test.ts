// The Python example generator computes each candidate's content hash and line counts itself, so its
// copy of append_section and of the line count must give whetstone's bytes and figures, or the runner
// refuses its candidates. Checked on the document shapes that differ: final newline or not, trailing blank
// lines, CRLF, frontmatter only, a body with blank lines around it.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { diffStats } from '../../src/skill/diff.js';
import { applyEdits } from '../../src/skill/edits.js';
import { repoRoot } from '../support/cli.js';

const texts = ['# T\n\nbody\n', '# T\n\nbody', '# T\n\nbody\n\n', '# T\r\n\r\nbody\r\n', '---\nname: x\n---\n', '# T\n\nbody  \n\n\n', '# T\n\n## Steps\n\n1. one\n2. two\n'];
const body = '\nWhen a request involves security, give security a section of its own.\nSay what each item means.\n\n';

const py = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("generate", sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
out = []
for t in json.loads(sys.argv[2]):
    n = g.append_section(t, "Security", sys.argv[3])
    out.append({"text": n, "sha": g.sha256_text(n), "stats": g.diff_stats(t, n)})
print(json.dumps(out))
`;

describe('examples/external-generator/generate.py', () => {
  it('applies append_section and counts changed lines exactly as whetstone does', () => {
    const file = join(repoRoot, 'examples/external-generator/generate.py');
    const got = JSON.parse(execFileSync('python3', ['-c', py, file, JSON.stringify(texts), body]).toString()) as { text: string; sha: string; stats: unknown }[];
    texts.forEach((t, i) => {
      const expected = applyEdits(t, [{ type: 'append_section', heading: 'Security', body }]);
      expect(got[i]!.text, JSON.stringify(t)).toBe(expected);
      expect(got[i]!.stats, JSON.stringify(t)).toEqual(diffStats(t, expected));
      expect(got[i]!.sha).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });
});
