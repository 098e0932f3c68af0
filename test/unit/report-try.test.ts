import { it } from 'vitest';
import { runCommand } from '../fixtures/report/cli.js';
it('prints', async () => {
  const r = await runCommand(['report', '--state-root', 'state/demo/state', ...(process.env.ARGS ? process.env.ARGS.split(' ') : [])], { cwd: '/work/main' });
  console.log(r.code, r.stderr);
  require('fs').writeFileSync('/tmp/report.out', r.stdout);
});
