// The eight case kinds of seed 003 and the spellings people use for them. A case's `kind` is kept
// verbatim for grouping; the canonical name is only used to match thresholds (`direct`, `synonyms`)
// and `--kind` filters, so a Chinese or hyphenated case file gets the same gates as ours.

export const CANONICAL_KINDS = [
  'direct',
  'synonyms',
  'missing_params',
  'multi_turn',
  'ambiguity',
  'cross_system',
  'multi_step',
  'must_refuse',
] as const;
export type CanonicalKind = (typeof CANONICAL_KINDS)[number];

const ALIASES: Record<CanonicalKind, string[]> = {
  direct: ['direct', 'plain', 'basic', '直白'],
  synonyms: ['synonyms', 'synonym', 'colloquial', 'synonyms_colloquial', 'synonym_colloquial', 'synonyms_and_colloquial', 'paraphrase', '同义', '口语', '同义口语'],
  missing_params: ['missing_params', 'missing_param', 'missing_parameters', 'missing_parameter', 'defaults', 'missing', '参数缺省', '缺省'],
  multi_turn: ['multi_turn', 'multiturn', 'references', 'reference', 'coreference', 'references_across_turns', '指代', '多轮', '指代多轮'],
  ambiguity: ['ambiguity', 'ambiguous', '歧义'],
  cross_system: ['cross_system', 'routing', 'cross_system_routing', '跨系统'],
  multi_step: ['multi_step', 'multistep', 'compound', 'multi_step_compound', '多步', '复合', '多步复合'],
  must_refuse: ['must_refuse', 'refuse', 'refusal', 'should_refuse', '应拒绝', '拒绝'],
};

const lookup = new Map<string, CanonicalKind>();
for (const [canon, names] of Object.entries(ALIASES) as [CanonicalKind, string[]][]) {
  for (const n of names) lookup.set(n, canon);
}

/** Lower case, NFKC, runs of spaces, hyphens and slashes as one underscore. */
export function normalizeKind(kind: string): string {
  return kind.normalize('NFKC').trim().toLowerCase().replace(/[\s\-/]+/g, '_');
}

/** The canonical kind, or the normalised spelling when it is not one of the eight. */
export function canonicalKind(kind: string): string {
  const n = normalizeKind(kind);
  return lookup.get(n) ?? n;
}

/** Whether two spellings name the same kind. */
export function sameKind(a: string, b: string): boolean {
  return canonicalKind(a) === canonicalKind(b);
}

/** Kinds in the seed's order first, then others in order of first appearance. */
export function orderKinds(kinds: Iterable<string>): string[] {
  const seen = [...new Set(kinds)];
  const rank = (k: string) => {
    const i = (CANONICAL_KINDS as readonly string[]).indexOf(canonicalKind(k));
    return i < 0 ? CANONICAL_KINDS.length : i;
  };
  return seen.map((k, i) => ({ k, i })).sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i).map((x) => x.k);
}
