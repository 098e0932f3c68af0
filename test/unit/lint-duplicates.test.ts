// Near-duplicate prompts. The prefix-filtered search must find exactly the pairs a brute-force
// comparison of every pair finds (Jaccard index of word sets, Jaccard 1901), on random prompts built
// to contain many near copies.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { jaccard, lintSuite, similarPairs, words } from '../../src/lint/index.js';
import { mulberry32 } from '../../src/stats/index.js';
import { tempDir, write } from '../support/cli.js';

function bruteForce(texts: string[], t: number): string[] {
  const sets = texts.map((x) => new Set(words(x)));
  const out: string[] = [];
  for (let b = 0; b < texts.length; b++) {
    for (let a = 0; a < b; a++) {
      if (sets[a]!.size === 0 || sets[b]!.size === 0) continue;
      let inter = 0;
      for (const w of sets[a]!) if (sets[b]!.has(w)) inter++;
      const j = inter / (sets[a]!.size + sets[b]!.size - inter);
      if (j >= t - 1e-12) out.push(`${a}-${b}`);
    }
  }
  return out;
}

describe('similarPairs', () => {
  it('finds exactly the brute-force pairs on random prompts, at several thresholds', () => {
    const rnd = mulberry32(42);
    const vocab = Array.from({ length: 60 }, (_, i) => `w${i}`);
    for (let round = 0; round < 40; round++) {
      const texts: string[] = [];
      for (let i = 0; i < 80; i++) {
        const base = i > 0 && rnd() < 0.5 ? texts[Math.floor(rnd() * i)]!.split(' ') : Array.from({ length: 3 + Math.floor(rnd() * 15) }, () => vocab[Math.floor(rnd() * vocab.length)]!);
        const edited = base.filter(() => rnd() > 0.08);
        if (rnd() < 0.3) edited.push(vocab[Math.floor(rnd() * vocab.length)]!);
        texts.push(edited.join(' '));
      }
      for (const t of [0.5, 0.7, 0.9, 1]) {
        const got = similarPairs(texts, t).map((p) => `${p.a}-${p.b}`).sort();
        expect(got).toEqual(bruteForce(texts, t).sort());
      }
    }
  });

  it('compares word sets: case, punctuation, order and repetition do not matter', () => {
    expect(jaccard(new Set(words('Refund my ORDER, please!')), new Set(words('please refund my order order')))).toBe(1);
    expect(similarPairs(['Refund my order please', 'please, refund my order!', 'Where is my parcel?'], 0.9)).toEqual([{ a: 0, b: 1, similarity: 1 }]);
    // 4 shared of 6 distinct words: 0.6667, below 0.9 and above 0.6.
    expect(similarPairs(['a b c d e', 'a b c d f'], 0.9)).toEqual([]);
    expect(similarPairs(['a b c d e', 'a b c d f'], 0.6)).toHaveLength(1);
  });

  it('handles text without spaces (CJK bigrams)', () => {
    expect(similarPairs(['我想退款这个订单', '我想退款这个订单。'], 0.9)).toHaveLength(1);
  });
});

describe('the duplicate-prompt rule', () => {
  it('reports the later task, naming the earlier one and its line; --similarity moves the bar', () => {
    const dir = tempDir();
    write(
      join(dir, 'tasks.yaml'),
      `skill_id: s
version: "1.0"
tasks:
  - id: refund-order
    negative: true
    prompt: Can I get a refund for my order from last week?
    judge: {type: contains, expected: [refund]}
  - id: refund-order-again
    prompt: can i get a refund for my order from last week
    judge: {type: contains, expected: [refund]}
  - id: refund-order-variant
    prompt: Can I get a refund for the order from last week?
    judge: {type: contains, expected: [refund]}
`,
    );
    const at = (similarity: number) =>
      lintSuite({ suite: 'tasks.yaml', similarity }, dir)
        .findings.filter((f) => f.rule === 'duplicate-prompt')
        .map((f) => `${f.line} ${f.severity} ${f.message}`);
    expect(at(0.9)).toEqual(['8 warning prompt of "refund-order-again" has the same words as "refund-order" (line 4)']);
    // 10 shared words of 12 distinct ("my" vs "the"): 0.8333.
    expect(at(0.8)).toEqual([
      '8 warning prompt of "refund-order-again" has the same words as "refund-order" (line 4)',
      '11 warning prompt of "refund-order-variant" is 0.83 similar to "refund-order" (line 4)',
      '11 warning prompt of "refund-order-variant" is 0.83 similar to "refund-order-again" (line 8)',
    ]);
  });
});

describe('findings on an intent suite', () => {
  it('point at the case’s line in the case file, not at the suite’s intents: line', () => {
    const dir = tempDir();
    write(join(dir, 'catalog.json'), JSON.stringify({ capabilities: [{ id: 'message.send', description: 'Post a message to a chat channel.', systems: ['slack'], parameters: { type: 'object', properties: { text: { type: 'string' } } } }] }));
    const c = (id: string, utterance: string, behavior = 'call') =>
      JSON.stringify({ id, kind: 'direct', utterance, context: {}, expect: { behavior, capability: behavior === 'call' ? 'message.send' : null } });
    write(
      join(dir, 'cases.jsonl'),
      [
        c('post-standup', 'Tell the team channel that standup moves to ten tomorrow morning'),
        '',
        c('post-standup-again', 'tell the team channel that standup moves to ten tomorrow morning'),
        c('case-7', 'Delete every message in the incident channel right now please', 'refuse'),
      ].join('\n') + '\n',
    );
    write(join(dir, 'suite.yaml'), 'skill_id: s\nversion: "1.0"\nintents:\n  cases: cases.jsonl\n  catalog: catalog.json\n');
    write(join(dir, 'SKILL.md'), '# Chat\nExample: Delete every message in the incident channel right now please\n');
    const r = lintSuite({ suite: 'suite.yaml' }, dir);
    const shown = r.findings.filter((f) => f.rule !== 'grid-none').map((f) => `${f.file}:${f.line} ${f.rule} ${f.message}`);
    expect(shown).toEqual([
      'cases.jsonl:3 duplicate-prompt prompt of "post-standup-again" has the same words as "post-standup" (line 1)',
      'cases.jsonl:4 id-positional id "case-7" is a position, not a name: renumbering after an insert or delete would attach old results to another case',
      'cases.jsonl:4 leak-prompt-in-skill the prompt of task "case-7" (cases.jsonl:4) appears verbatim in SKILL.md:2',
    ]);
  });
});
