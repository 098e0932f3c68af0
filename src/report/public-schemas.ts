// What the package exports (package.json "exports": `whetstone/schemas`, issue 43): the contract a program
// outside whetstone relies on — the artifacts a state directory holds, as the zod schemas whetstone
// validates them with and as JSON Schema (what `whet schemas` prints), and the stage-program protocol's
// envelope and handoff table (docs/external-stages.md). Nothing else in the package is importable, so the
// rest can move without breaking anyone. Built by scripts/bundle.ts into dist/bin/schemas.js.
export { ARTIFACT_SCHEMAS, jsonSchemaOf, jsonSchemas, type ArtifactSchema } from './schemas.js';
export { envelope, envelopeOf, HANDOFF, HANDOFF_END, SCHEMA_OF, type Envelope, type StageName } from '../artifacts/envelope.js';
export { evaluationArtifact, type EvaluationArtifact } from '../artifacts/evaluation.js';
export { candidatesArtifact, type CandidatesArtifact } from '../artifacts/candidates.js';
export { rankingArtifact, type RankingArtifact } from '../artifacts/ranking.js';
export { gateArtifact, type GateArtifact } from '../artifacts/gate.js';
export { learningArtifact, type LearningArtifact } from '../artifacts/learning.js';
export { feedbackItem, type FeedbackItem } from '../artifacts/feedback.js';
