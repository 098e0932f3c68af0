// What code that runs engines takes from outside instead of reaching for process globals — the CLI fills
// it from CliDeps — so tests drive evaluations, loops and nightlies with their own folder, clock,
// environment and output. Stage contexts and command environments extend it.
export interface RunEnv {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** Human-readable progress and summary lines (stderr in the CLI). */
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Raw terminal writes for progress bars; absent when stderr is not a TTY. */
  progressOut?: (s: string) => void;
}
