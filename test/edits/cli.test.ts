// `edits list|show|apply|discard`, the real bin against the simulator: one smoke run per
// command for its output and exit code (the listing, an edit's question, apply bringing the
// new Brand Skill to disk, a discard). The refusals, --json documents and bad usage are in
// use-cases.test.ts, in process.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { runCli, type CliRun } from '../support/run-cli.ts';

const KEY = `sk-edits-${randomBytes(10).toString('hex')}`;
let sim: Simulator;
let dir: string;

function run(args: string[]): Promise<CliRun> {
  return runCli(
    args,
    {
      HOME: dir,
      BRAND_SYNC_BASE_URL: sim.baseUrl,
      BRAND_SYNC_API_KEY: KEY,
      BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
      BRAND_SYNC_ROOT: path.join(dir, 'root'),
    },
    KEY,
  );
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

beforeAll(async () => {
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-sync-edits-cli-'));
});
afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

describe('edits', () => {
  test('list: the human table; unknown states as they are', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Listing' });
    const waiting = sim.control.seedEdit({
      brandId,
      status: 'awaiting_approval',
      changeSummary: 'Warmer colours',
    });
    const novel = sim.control.seedEdit({
      brandId,
      status: 'under_review',
      changeSummary: 'Something new',
    });
    const human = await run(['edits', 'list', brandId]);
    expect(human.code).toBe(0);
    expect(lines(human.stdout)[0]).toMatch(/^ID\s+STATUS\s+UPDATED\s+SUMMARY$/);
    expect(human.stdout).toMatch(
      new RegExp(`^${waiting.id}\\s+awaiting_approval\\s+\\S+\\s+Warmer colours$`, 'm'),
    );
    expect(human.stdout).toMatch(
      new RegExp(`^${novel.id}\\s+under_review\\s+\\S+\\s+Something new$`, 'm'),
    );
    expect(human.stdout).toMatch(/^1 awaiting approval: /m);
  });

  test('show: the question of an edit that needs an answer', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Showing' });
    const asking = sim.control.seedEdit({ brandId, status: 'input_required' });
    const question = await run(['edits', 'show', brandId, asking.id]);
    expect(question.code).toBe(0);
    expect(question.stdout).toMatch(/^Status:\s+input_required \(a question needs an answer/m);
    expect(question.stdout).toContain('Question (clarification):');
    expect(question.stdout).toMatch(/^ {2}Subject: Primary colour$/m);
    expect(question.stdout).toMatch(
      /^ {2}Prompt: {2}Should the refreshed colour also replace the accent colour\?$/m,
    );
    expect(question.stdout).toMatch(
      /^ {2}Accepts: text \(1-10000 characters, required\); 0-9 images; 0-5 sources$/m,
    );
  });

  test('apply: the candidate becomes the brand and its Brand Skill comes to disk', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Applied Co' });
    const edit = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const result = await run(['edits', 'apply', brandId, edit.id, '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as {
      applied: boolean;
      edit: { status: string };
      export: Record<string, unknown>;
    };
    expect(doc).toMatchObject({
      applied: true,
      edit: { status: 'applied' },
      export: { ran: true, ok: true, outcome: 'installed', skillId: edit.targetSkillId },
    });
    const skill = path.join(dir, 'root', 'Applied Co', 'Brand Skill', 'SKILL.md');
    expect(fs.existsSync(skill)).toBe(true);
    expect(sim.control.brands().find((b) => b.id === brandId)?.skillId).toBe(edit.targetSkillId);
  });

  test('discard: done, the brand unchanged', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Discarding' });
    const open = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const discarded = await run(['edits', 'discard', brandId, open.id]);
    expect(discarded.code).toBe(0);
    expect(discarded.stdout).toBe(
      `Discarded edit ${open.id} (discarded); brand ${brandId} is unchanged.\n`,
    );
  });
});
