// `whet import feedback FILE [RUN]`: skill-creator's feedback.json into the feedback memory (src/view/feedback-import.ts).
// `whet import promptfoo CONFIG [-o FILE] [--skill-id ID] [--force]`: writes a whetstone task suite from a
// promptfoo config (promptfoo.ts). The suite goes beside the config as tasks.yaml unless -o names a file;
// an existing file is kept unless --force. Every check that could not be carried over is listed on stderr
// with its place in the config, and is also written into the suite as a comment.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliDeps, SetCode } from '../program/deps.js';
import { displayPath } from '../config/load-yaml.js';
import { UsageError } from '../core/errors.js';
import { writeFileAtomically } from '../core/atomic.js';
import { importPromptfoo } from '../import/promptfoo.js';
import { checkIterationFlag } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { stateDirOf } from './state-dir.js';

interface Opts {
  output?: string;
  skillId?: string;
  force?: boolean;
}

export function registerImportCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  const cmd = program.command('import').description('write a whetstone task suite from another tool’s test file');
  cmd
    .command('promptfoo')
    .description('a promptfoo config’s tests (vars substituted, assertions mapped to judges) as a task suite')
    .argument('<config>', 'promptfooconfig.yaml')
    .option('-o, --output <file>', 'the suite to write (default: tasks.yaml beside the config)')
    .option('--skill-id <id>', 'the suite’s skill_id (default: from the config’s description)')
    .option('--force', 'replace the output file when it exists')
    .action(async (config: string, o: Opts) => {
      const file = resolve(deps.cwd, config);
      const out = o.output ? resolve(deps.cwd, o.output) : join(dirname(file), 'tasks.yaml');
      if (existsSync(out) && !o.force) throw new UsageError(`${displayPath(out, deps.cwd)} exists; pass --force to replace it, or -o another file`);
      const r = importPromptfoo(file, { outDir: dirname(out), ...(o.skillId ? { skillId: o.skillId } : {}) });
      await writeFileAtomically(out, r.yaml);
      const lines = [`whet: wrote ${displayPath(out, deps.cwd)}: ${r.tasks} task(s) from ${r.tests} test(s)${r.combinations > r.tests ? ` (${r.combinations} with their list vars expanded, as promptfoo runs them)` : ''} × ${r.prompts} prompt(s)`];
      if (r.issues.length) {
        lines.push(`not carried over (${r.issues.length}; also written as comments in the suite):`);
        for (const i of r.issues) lines.push(`  ${i.where} ${i.field}: ${i.message}${i.tasks.length ? ` — task ${i.tasks.join(', ')} marked promptfoo-partial` : ' — test not imported (no judge left)'}`);
      }
      for (const d of r.dropped) lines.push(`not imported: ${d}`);
      if (r.unmapped) lines.push(`${r.unmapped} test(s) had no assertion whetstone can judge: written commented out at the end of the suite`);
      if (r.unjudged) lines.push(`${r.unjudged} task(s) from tests without assertions are unjudged: run and reported, kept out of every rate`);
      // promptfoo compares prompts and models; whetstone measures a skill given with each prompt, which the
      // config does not have: say what the suite is run against and how to get one (docs/guides/coming-from-promptfoo.md).
      const suite = displayPath(out, deps.cwd);
      lines.push(
        'the suite measures a skill: a folder whose SKILL.md the agent is given with every prompt (after a chat prompt\'s system turn); promptfoo has none, so',
        '  write the instructions you want to improve as skill/SKILL.md (frontmatter name and description, then the text; `whet init` writes a starter), then:',
        `  whet evaluate --standalone --task-suite ${suite} --skill-path skill`,
      );
      deps.stderr(`${lines.join('\n')}\n`);
    });
  cmd
    .command('feedback')
    .description('skill-creator’s feedback.json (its viewer’s reviews) into the feedback memory, each review on the output `whet report --format skill-creator` exported under its run id')
    .argument('<file>', 'feedback.json')
    .argument('[run]', 'the run the reviews are about (default: the newest run)')
    .option('--iteration <n>', 'which iteration of a loop run (default: the one whet report --format skill-creator exports)', (v: string) => checkIterationFlag(v))
    .option('-c, --config <file>', 'pipeline config (for its state_dir)')
    .option('--state-root <dir>', 'state directory')
    .action(async (file: string, run: string | undefined, o: { iteration?: number; config?: string; stateRoot?: string }) => {
      const stateDir = await stateDirOf(deps, o);
      // Loaded here: `whet import promptfoo` needs none of the run readers.
      const { exportedRun, importFeedback } = await import('../view/feedback-import.js');
      const { id, n } = exportedRun(stateDir, run, o.iteration);
      const r = importFeedback(stateDir, id, n, resolve(deps.cwd, file), deps.now());
      const bad = r.imported.filter((f) => f.rating === 'bad').length;
      const lines = [`whet: ${r.imported.length} review(s) of ${id}${n ? ` iteration ${n}` : ''} imported into ${displayPath(stateLayout.feedback(stateDir), deps.cwd)} (${bad} bad, ${r.imported.length - bad} good)`];
      for (const s of r.skipped) lines.push(`  not imported: ${s.run_id}: ${s.why}`);
      deps.stderr(`${lines.join('\n')}\n`);
      if (r.skipped.length) setCode(1);
    });
}

