// Suite and skill checks (`whet lint`): what the rest of whetstone may use.
export { lintSuite, RULES, type LintRunOptions, type LintResult } from './run.js';
export { similarPairs, jaccard, type SimilarPair } from './duplicates.js';
export { matchesEverything } from './expected.js';
export { looksPositional } from './shape.js';
export { MIN_PROMPT_CHARS, MIN_EXPECTED_CHARS } from './leakage.js';
export { SHINGLE, normalise, words } from './text.js';
export { DEFAULT_SIMILARITY, type Finding, type Severity, type LintOptions } from './types.js';
