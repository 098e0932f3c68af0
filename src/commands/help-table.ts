// The top-level help as a static table, so `whet --help`, `whet --version` and a mistyped command load no
// command family (each imports engines, stages or report code). test/unit/help-table.test.ts holds it to
// the real registrars: a command added, renamed or re-described there fails until this table says the same.

/** Each command as top-level help lists it: its usage term and its description. */
export const COMMAND_TABLE: readonly { term: string; description: string }[] = [
  { term: 'evaluate [options]', description: 'evaluate a skill on a task suite: standalone, or a ranked candidate against the baseline' },
  { term: 'merge [options] <dirs...>', description: 'merge the shards of an evaluation (whet evaluate --shard i/n) into the artifact an unsharded run writes' },
  { term: 'plan [options]', description: 'before a run: attempts per held-out task, engine calls and cost, and the power to find thresholds.min_effect' },
  { term: 'run [options]', description: 'the improvement loop: generate → discriminate → evaluate → gate → learn, until a stop rule' },
  { term: 'resume [options] [run]', description: 'continue a run from its last handoff (default: the newest run)' },
  { term: 'generate [options]', description: "run the generate stage of a run's current iteration on saved state (redoes it if it already ran)" },
  { term: 'discriminate [options]', description: "run the discriminate stage of a run's current iteration on saved state (redoes it if it already ran)" },
  { term: 'gate [options]', description: "run the gate stage of a run's current iteration on saved state (redoes it if it already ran)" },
  { term: 'learn [options]', description: "run the learn stage of a run's current iteration on saved state (redoes it if it already ran)" },
  { term: 'status [options]', description: 'the newest runs (every run with --all): target, iteration, last stage, decisions, next step, age' },
  { term: 'show [options] [run] [stage]', description: 'a readable summary of a run, or of one stage’s artifact' },
  { term: 'diff [options] <run> <candidate>', description: 'a candidate’s unified diff against the target' },
  { term: 'verify [options] [runs...]', description: 'check a state directory (runs, artifacts, results logs, events, backups, cache, nightly records, lock): exit 0 clean, 1 damaged' },
  { term: 'rollback [options] <run>', description: 'restore the target byte-for-byte as it was before the run promoted anything' },
  { term: 'review', description: 'decide candidates the gate held for a person' },
  { term: 'intents [options]', description: 'intent evals for tool-using agents: capability selection, parameters, clarify and refuse (docs/method.md: Intent evals)' },
  { term: 'baseline [options]', description: 'standalone evaluation of every target in the config, cached by content + TTL' },
  { term: 'nightly [options]', description: 'every task of every target measured fresh (never from the cache) + dated report + trend + drift check; exit 1 on a significant drop' },
  { term: 'prune [options]', description: 'remove old runs and expired cache entries (never a run that promoted a candidate, nor its backups)' },
  { term: 'calibrate [options] [labels]', description: 'judge-vs-human agreement: TP/TN/FP/FN, TPR, TNR, accuracy, precision, kappa and the bias reading (docs/method.md: Calibrating a judge)' },
  { term: 'lint [options] [suite]', description: 'check a task suite: grid coverage, negative controls, near-duplicate prompts, leakage, impossible expectations, positional ids' },
  { term: 'doctor [options]', description: 'check every configured engine: program and version, endpoint, key variable' },
  { term: 'init [options] [dir]', description: 'write a commented pipeline.yaml, an example skill and suite, and .gitignore entries' },
  { term: 'report [options] [run]', description: 'the evidence report of a run: eval set, judge metrics, thresholds, gates, per-category rates, new cases' },
  { term: 'schemas [options]', description: 'JSON Schema of every artifact (run, evaluation, candidates, ranking, gate, learning, calibration, nightly, nightly history, feedback, report)' },
  { term: 'schedule', description: 'run `whet nightly` on a schedule: print, install or remove a crontab entry, a systemd timer or a CI workflow; or run it in the foreground' },
  { term: 'import', description: 'write a whetstone task suite from another tool’s test file' },
  { term: 'stage', description: 'external stage programs (pipeline.yaml stages.<name>.command)' },
  { term: 'view [options]', description: 'watch runs live, read outputs side by side, give feedback and review held candidates in a browser (127.0.0.1)' },
];

/** The command a term names. */
export const commandName = (term: string): string => term.split(' ')[0]!;
