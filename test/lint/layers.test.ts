// The layer rules of docs/product.md ("The pieces, and who may import whom"), as the project's ESLint config enforces them: a forbidden
// import in each layer is reported, an allowed one is not.
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).some(
    (m) =>
      m.ruleId === 'no-restricted-imports' ||
      m.ruleId === 'no-restricted-globals' ||
      m.ruleId === '@typescript-eslint/no-restricted-imports',
  );
}

describe('layer rules', () => {
  test.each([
    ['main/engine/x.ts', "import { app } from 'electron';"],
    ['main/engine/sub/x.ts', "import { startSimulator } from '../../../simulator/index.ts';"],
    ['main/engine/x.ts', "import { runCli } from '../hosts/cli/program.ts';"],
    ['simulator/x.ts', "import { Engine } from '../main/engine/core/engine.ts';"],
    ['contract/x.ts', "import { Engine } from '../main/engine/core/engine.ts';"],
    ['renderer/src/x.ts', "import { Engine } from '../../main/engine/core/engine.ts';"],
    ['renderer/src/x.ts', "import fs from 'node:fs';"],
    ['contract/x.ts', "import fs from 'node:fs';"],
    ['contract/x.ts', "import Fastify from 'fastify';"],
    ['renderer/src/state/x.ts', "export const answer = fetch('/api/status');"],
    ['renderer/src/components/x.ts', "export const events = new EventSource('/api/events');"],
    ['main/hosts/headless/x.ts', "import { app } from 'electron';"],
    [
      'renderer/src/lib/x.ts',
      "import { channels } from '../../../contract/index.ts';\nexport const c = channels;",
    ],
    ['main/hosts/cli/x.ts', "import { BrowserWindow } from 'electron';"],
    ['contract/x.ts', "import { ipcRenderer } from 'electron';"],
    ['main/hosts/electron/x.ts', "import { ipcRenderer } from 'electron';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restricted(file, `${code}\n`)).toBe(true);
  });

  test.each([
    ['main/engine/x.ts', "import { z } from 'zod';"],
    ['main/hosts/cli/x.ts', "import { startSimulator } from '../../../simulator/index.ts';"],
    ['simulator/x.ts', "import Fastify from 'fastify';"],
    [
      'contract/x.ts',
      "import { z } from 'zod';\nimport { ok } from './result.ts';\nexport const a = [z, ok];",
    ],
    ['renderer/src/lib/bridge/x.ts', "export const answer = fetch('/api/status');"],
    [
      'main/hosts/electron/x.ts',
      "import { app, ipcMain } from 'electron';\nexport const a = [app, ipcMain];",
    ],
    ['preload/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    [
      'renderer/src/lib/x.ts',
      "import type { Channels } from '../../../contract/index.ts';\nexport type C = Channels;",
    ],
  ])('%s may: %s', async (file, code) => {
    expect(await restricted(file, `${code}\n`)).toBe(false);
  });
});
