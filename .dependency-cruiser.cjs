// The layering rule (AGENTS.md "Layers"), checked by `npm test` (test/unit/layers.test.ts): each layer
// imports only its own and lower layers, no stage imports another stage, and no import cycle exists.
// Type-only imports count: a cycle through types is still a cycle a reader has to untangle.
const LAYERS = [
  // [name, path pattern], top to bottom
  ['interface', '^src/(cli\\.ts|commands/|stage-programs/)'],
  ['program', '^src/program/'],
  ['runner', '^src/runner/'],
  ['read-models', '^src/(report|inspect|view)/'],
  ['libraries', '^src/(nightly|calibrate|lint|schedule|import)/'],
  ['stages', '^stages/'],
  ['loop-kernel', '^src/(loop|measure|lessons)/'],
  ['contracts', '^src/artifacts/'],
  ['domain', '^src/(evaluation|judges|skill|engines|intents|config|state|stats)/'],
  ['core', '^src/core/'],
];
const above = (i) => LAYERS.slice(0, i).map(([, p]) => p);

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'import cycles', from: { path: '^(src|stages)/' }, to: { circular: true } },
    {
      name: 'no-stage-to-stage',
      severity: 'error',
      comment: 'a stage talks to other stages only through artifacts (src/artifacts), never by import',
      from: { path: '^stages/([^/]+)/' },
      to: { path: '^stages/', pathNot: '^stages/$1/' },
    },
    {
      name: 'stage-program-own-stage',
      severity: 'error',
      comment: 'a stage program loads its own stage and the loop kernel, not other stages or the CLI',
      from: { path: '^src/stage-programs/([^/]+)\\.ts$' },
      // its scaffolding is src/program/; of the commands only the one-stage command and, for evaluate, its own
      to: { path: '^(stages/|src/cli\\.ts|src/commands/|src/stage-programs/|src/runner/registry\\.ts)', pathNot: ['^stages/$1/', '^src/commands/(state-dir|stage-command)\\.ts$', '^src/commands/$1\\.ts$'] },
    },
    {
      name: 'no-stages-below-the-runner',
      severity: 'error',
      comment: 'only the interface (src/cli.ts, src/commands/, src/stage-programs/) and the runner load stages; shared machinery lives in src/',
      from: { path: '^src/', pathNot: '^src/(cli\\.ts|commands/|stage-programs/|runner/)' },
      to: { path: '^stages/' },
    },
    ...LAYERS.slice(1).map(([name, path], i) => ({
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name} imports only its own layer and the ones below it`,
      from: { path, pathNot: above(i + 1) },
      to: { path: above(i + 1) },
    })),
    {
      name: 'every-file-in-a-layer',
      severity: 'error',
      comment: 'a new folder under src/ needs a place in LAYERS (and in AGENTS.md)',
      from: { path: '^(src|stages)/', pathNot: LAYERS.map(([, p]) => p) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
