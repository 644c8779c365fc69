// string-width is loaded for human output only (its module costs some 30 to 50 ms of a start):
// a `--json` command never loads it, a human one does before its handler runs, and formatting
// before it is loaded is a clear error, never columns padded wrongly. One file of its own: the
// loaded module is kept for the rest of a file.
import type { Command } from 'commander';
import { expect, test } from 'vitest';
import { action } from '../../main/hosts/cli/action.ts';
import { EXIT, fields, table } from '../../main/hosts/cli/output.ts';

/** Runs a command through `action` with these global options; returns its exit code. */
async function run(json: boolean, handler: () => Promise<void>): Promise<number> {
  let code: number | undefined;
  const command = { optsWithGlobals: () => ({ json }) } as unknown as Command;
  await action(
    {
      env: {},
      signal: new AbortController().signal,
      streams: { stdout: () => {}, stderr: () => {} },
      setExitCode: (c) => (code = c),
    },
    handler,
  )(command);
  return code as number;
}

test('--json never loads string-width; a human command loads it before its handler runs', async () => {
  expect(() => table(['A'], [['x']])).toThrow(/before loadDisplayWidth\(\) ran/);
  let inJson: unknown;
  expect(
    await run(true, async () => {
      try {
        table(['A'], [['x']]);
      } catch (error) {
        inJson = error;
      }
    }),
  ).toBe(EXIT.ok);
  expect(String(inJson)).toMatch(/before loadDisplayWidth\(\) ran/);

  let inHuman: string[] = [];
  expect(
    await run(false, async () => {
      inHuman = fields([
        ['名前', 'x'],
        ['status', 'y'],
      ]);
    }),
  ).toBe(EXIT.ok);
  // Padded by display width: 名前 takes four columns, as "status" takes six.
  expect(inHuman).toEqual(['名前:    x', 'status:  y']);
});
