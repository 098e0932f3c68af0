// What every command receives instead of reaching for process globals, so tests can call commands as
// functions with their own cwd, clock, environment and output.
import { InvalidArgumentError } from 'commander';

export interface CliDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  signal?: AbortSignal;
  /** stderr is a terminal: draw progress bars. */
  tty?: boolean;
}

export type SetCode = (code: number) => void;

export const intArg = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(v);
};

export const numArg = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
  return n;
};
