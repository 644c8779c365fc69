// `edits list|show|apply|discard`, the real bin against the simulator: the listing (human and
// --json), an edit's question and diff, apply bringing the new Brand Skill to disk, a stale
// edit (exit 1, the brand's current Skill brought instead), a discard the state refuses,
// a service without the list endpoint, and bad usage.
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
  test('list: human table and one --json document; unknown states as they are', async () => {
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
    const json = await run(['edits', 'list', brandId, '--json']);
    const doc = JSON.parse(json.stdout) as {
      brandId: string;
      source: string;
      edits: { id: string; status: string }[];
    };
    expect(doc).toMatchObject({ brandId, source: 'service', syncedAt: null });
    expect(doc.edits.map((e) => [e.id, e.status]).sort()).toEqual(
      [
        [waiting.id, 'awaiting_approval'],
        [novel.id, 'under_review'],
      ].sort(),
    );
    const none = await run(['edits', 'list', (await sim.control.seedBrand({ name: 'Quiet' })).id]);
    expect(none.stdout).toBe('No Brand Edits for this brand.\n');
  });

  test('show: the question of an edit that needs an answer; the diff of one awaiting approval', async () => {
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
    const json = JSON.parse(
      (await run(['edits', 'show', brandId, asking.id, '--json'])).stdout,
    ) as Record<string, unknown>;
    expect(json).toMatchObject({
      id: asking.id,
      status: 'input_required',
      source: 'service',
      interaction: {
        subject: 'Primary colour',
        accepts: { text: { required: true, maxLength: 10000 } },
      },
    });

    const waiting = sim.control.seedEdit({
      brandId,
      status: 'awaiting_approval',
      colorHex: '#123456',
    });
    const diff = await run(['edits', 'show', brandId, waiting.id]);
    expect(diff.stdout).toMatch(/^ {2}colors\[0\]\.hex: #\w{6} → #123456 \(replace\)$/m);
    expect(diff.stdout).toMatch(/^ {4}@@ -12,1 \+12,2 @@$/m);
    expect(diff.stdout).toMatch(/^ {4}\+- Refresh the primary colour to #123456$/m);
    expect(diff.stdout).toContain(`Apply it with: brand-sync edits apply ${brandId} ${waiting.id}`);
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

  test('a stale edit: exit 1, the brand changed meanwhile, the current Skill brought to disk', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Stale Co' });
    const first = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const second = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    expect((await run(['edits', 'apply', brandId, first.id])).code).toBe(0);
    const stale = await run(['edits', 'apply', brandId, second.id]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(
      new RegExp(
        `^brand-sync: BRAND_EDIT_STALE: The brand changed while edit ${second.id} waited for approval \\(its active Skill is now ${first.targetSkillId}\\)`,
        'm',
      ),
    );
    expect(stale.stdout).toMatch(/Brand Skill of "Stale Co" is up to date/);
    const listed = await run(['edits', 'list', brandId, '--json']);
    const statuses = (JSON.parse(listed.stdout) as { edits: { id: string; status: string }[] })
      .edits;
    expect(statuses.find((e) => e.id === second.id)?.status).toBe('stale');
  });

  test('discard: done; a state that refuses it: exit 1 naming the real state', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Discarding' });
    const open = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const discarded = await run(['edits', 'discard', brandId, open.id]);
    expect(discarded.code).toBe(0);
    expect(discarded.stdout).toBe(
      `Discarded edit ${open.id} (discarded); brand ${brandId} is unchanged.\n`,
    );
    const stale = sim.control.seedEdit({ brandId, status: 'stale' });
    const refused = await run(['edits', 'discard', brandId, stale.id, '--json']);
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toEqual([
      `brand-sync: BRAND_EDIT_STATE_CONFLICT: Edit ${stale.id} cannot be discarded: it is stale (the brand changed while the edit waited).`,
    ]);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: { code: 'BRAND_EDIT_STATE_CONFLICT', data: { editId: stale.id, status: 'stale' } },
    });
  });

  test('a service without the list endpoint: exit 1 with a clear message', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'No List' });
    sim.control.failNext('GET /v1/brands/{id}/edits', { status: 404, code: 'NOT_FOUND' });
    const result = await run(['edits', 'list', brandId]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^brand-sync: FEATURE_UNAVAILABLE: This service does not offer a list of Brand Edits/,
      ),
    ]);
  });

  test.each([
    [
      ['edits', 'show', '0d0e0a0d-0000-4000-8000-000000000001', 'first'],
      /"first" is not an edit ID/,
    ],
    [['edits', 'apply', 'nope', '0d0e0a0d-0000-4000-8000-000000000001'], /"nope"/],
    [
      ['edits', 'discard', '0d0e0a0d-0000-4000-8000-000000000001'],
      /missing required argument 'edit'/,
    ],
  ])('bad usage %j: exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  test('an unknown edit: exit 1 with the service’s code', async () => {
    const { id: brandId } = await sim.control.seedBrand({ name: 'Unknown Edit' });
    const result = await run(['edits', 'show', brandId, '0d0e0a0d-0000-4000-8000-0000000000ee']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^brand-sync: BRAND_EDIT_NOT_FOUND: /);
  });
});
