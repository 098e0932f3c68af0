import type { Command } from 'commander';
import type { CliDeps, SetCode } from '../commands/deps.js';
export function registerScheduleCommand(_program: Command, _deps: CliDeps, _setCode: SetCode): void {}
