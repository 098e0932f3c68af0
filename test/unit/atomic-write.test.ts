// src/core/atomic.ts, issue 33: a full disk leaves the old file (or the log cut back to its last whole
// line) and says "no space left on device at <path>"; a symbolic link at the path is replaced, never
// written through; a replaced file keeps its permissions; an exclusive write never replaces; the hash
// handed to beforeRename is that of the bytes that appear. The disk is a 64 KiB tmpfs (root only; skipped
// with a note where mounting is refused — test/integration/disk-full.test.ts covers the write sites).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendAtomically, writeFileAtomically, writeFileAtomicallySync, writeJsonAtomically } from '../../src/core/atomic.js';
import { NoSpaceError } from '../../src/core/errors.js';
import { tempDir } from '../support/cli.js';

function tinyDisk(): string | undefined {
  const dir = tempDir('whet-atomic-disk-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return undefined;
  }
}
const disk = tinyDisk();
afterAll(() => {
  if (disk) execFileSync('umount', [disk]);
});

describe('atomic writes on a full disk', () => {
  it.skipIf(!disk)('a whole-file write leaves the old file and names the path; a JSON one too', async () => {
    const file = join(disk!, 'state.json');
    await writeJsonAtomically(file, { old: true });
    const old = readFileSync(file);
    const big = 'x'.repeat(200 * 1024);
    const err = await writeFileAtomically(file, big).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoSpaceError);
    expect((err as Error).message).toBe(`no space left on device at ${file}; free some space, then run the command again`);
    expect(readFileSync(file).equals(old)).toBe(true);
    await expect(writeJsonAtomically(file, { rows: Array.from({ length: 5000 }, (_, i) => ({ i, text: 'y'.repeat(40) })) })).rejects.toBeInstanceOf(NoSpaceError);
    expect(readFileSync(file).equals(old)).toBe(true);
    // No temp file is left behind to hold the space.
    expect(readdirSync(disk!)).toEqual(['state.json']);
  });

  it.skipIf(!disk)('an append that does not fit is cut back to the last whole line', () => {
    const log = join(disk!, 'events.jsonl');
    appendAtomically(log, '{"a":1}\n');
    expect(() => appendAtomically(log, `${JSON.stringify({ b: 'z'.repeat(200 * 1024) })}\n`)).toThrow(NoSpaceError);
    expect(readFileSync(log, 'utf8')).toBe('{"a":1}\n');
  });
});

describe('atomic writes and what is at the path', () => {
  it('replaces a symbolic link by a file, leaving the linked file unchanged', async () => {
    const dir = tempDir();
    const outside = join(tempDir(), 'target.md');
    writeFileSync(outside, 'outside\n');
    const link = join(dir, 'SKILL.md');
    symlinkSync(outside, link);
    await writeFileAtomically(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, 'utf8')).toBe('new\n');
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
  });

  it('keeps a replaced file’s permissions, and sets the mode asked for', async () => {
    const dir = tempDir();
    const script = join(dir, 'run.sh');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o750);
    await writeFileAtomically(script, '#!/bin/sh\necho hi\n');
    expect(statSync(script).mode & 0o777).toBe(0o750);
    await writeFileAtomically(join(dir, 'secret.txt'), 's', { mode: 0o600 });
    expect(statSync(join(dir, 'secret.txt')).mode & 0o777).toBe(0o600);
  });

  it('an exclusive write refuses an existing file and leaves no temp file', () => {
    const dir = tempDir();
    const file = join(dir, 'report.md');
    writeFileAtomicallySync(file, 'first', { exclusive: true });
    expect(() => writeFileAtomicallySync(file, 'second', { exclusive: true })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(file, 'utf8')).toBe('first');
    expect(readdirSync(dir)).toEqual(['report.md']);
  });

  it('hands beforeRename the hash of the bytes that appear, before they appear', async () => {
    const dir = tempDir();
    const file = join(dir, 'gate.json');
    let seen: string | undefined;
    let existed: boolean | undefined;
    await writeJsonAtomically(file, { decision: 'keep', rows: Array.from({ length: 300 }, (_, i) => ({ i })) }, 2, {
      beforeRename: (sha) => {
        seen = sha;
        existed = existsSync(file);
      },
    });
    expect(existed).toBe(false);
    expect(seen).toBe(`sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`);
  });
});
