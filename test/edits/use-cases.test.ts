// The edits use cases in process, against the simulator over real HTTP and the real SQLite:
// apply bringing the new Skill to disk, a stale edit bringing the brand's current one (the
// one behaviour both faces share), and the CLI's words and exit codes for the refusals,
// parsed and printed by the CLI's own program with its streams captured (the real bin is
// started once per command in cli.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../main/hosts/cli/program.ts';
import {
  answerEdit,
  applyEditAndBringSkill,
  EditActionError,
  showEdit,
  type ApplyAnswer,
} from '../../main/engine/edits/index.ts';
import { startHarness, type Harness } from '../brands/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** The CLI in this process: its exit code and what it wrote, the key blanked as the bin does. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The CLI opens its own engine on the same data dir: the harness's one is closed first.
  await h.closeEngine();
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: {
      HOME: h.dir,
      BRAND_SYNC_BASE_URL: h.sim.baseUrl,
      BRAND_SYNC_API_KEY: h.key,
      BRAND_SYNC_DATA_DIR: h.dataDir,
      BRAND_SYNC_ROOT: h.root,
    },
    signal: new AbortController().signal,
    streams: { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
  });
  expect(stdout + stderr).not.toContain(h.key);
  return { code, stdout, stderr };
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

describe('apply, the use case', () => {
  test('applied: the candidate is the brand and its new Skill is on disk when it returns', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Use Applied' });
    const edit = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const engine = h.open();
    const told: ApplyAnswer[] = [];
    const applied = await applyEditAndBringSkill(engine, brandId, edit.id, {
      onAnswered: (answer) => {
        told.push(answer);
        // Told before the Skill is brought: nothing is on disk yet for this new brand.
        expect(fs.existsSync(path.join(h.root, 'Use Applied', 'Brand Skill', 'SKILL.md'))).toBe(
          false,
        );
      },
    });
    expect(applied.stale).toBeNull();
    expect(applied.edit?.status).toBe('applied');
    expect(told.map((t) => t.edit?.id)).toEqual([edit.id]);
    expect(applied.skill).toMatchObject({
      ran: true,
      ok: true,
      outcome: 'installed',
      skillId: edit.targetSkillId,
    });
    expect(fs.existsSync(path.join(h.root, 'Use Applied', 'Brand Skill', 'SKILL.md'))).toBe(true);
    expect(engine.store.edits.get(brandId, edit.id)?.status).toBe('applied');
    expect(engine.store.brands.get(brandId)?.skillId).toBe(edit.targetSkillId);
  });

  test('stale: not applied, the refusal in the engine’s words, the current Skill on disk all the same', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Use Stale' });
    const first = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const second = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const engine = h.open();
    await applyEditAndBringSkill(engine, brandId, first.id);
    const skillFile = path.join(h.root, 'Use Stale', 'Brand Skill', 'SKILL.md');
    // The Skill on disk is removed: only the stale path can bring it back now.
    await fs.promises.rm(path.dirname(skillFile), { recursive: true, force: true });
    const stale = await applyEditAndBringSkill(engine, brandId, second.id);
    expect(stale.edit).toBeNull();
    expect(stale.stale).toBeInstanceOf(EditActionError);
    expect(stale.stale?.code).toBe('BRAND_EDIT_STALE');
    expect(stale.stale?.message).toBe(
      `The brand changed while edit ${second.id} waited for approval (its active Skill is now ${first.targetSkillId}), so the edit is stale and was not applied. The edit list was refreshed; ask for a new edit on the current brand.`,
    );
    expect(stale.skill).toMatchObject({ ran: true, ok: true, skillId: first.targetSkillId });
    expect(fs.existsSync(skillFile)).toBe(true);
    expect(engine.store.edits.get(brandId, second.id)?.status).toBe('stale');
  });

  test('any other refusal is thrown and nothing is brought', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Use Preparing' });
    const preparing = h.sim.control.seedEdit({ brandId, status: 'input_required' });
    const engine = h.open();
    let told = false;
    const error = await applyEditAndBringSkill(engine, brandId, preparing.id, {
      onAnswered: () => (told = true),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EditActionError);
    expect((error as EditActionError).code).toBe('BRAND_EDIT_STATE_CONFLICT');
    expect(told).toBe(false);
    expect(fs.existsSync(path.join(h.root, 'Use Preparing'))).toBe(false);
  });
});

describe('answer, the use case', () => {
  test('stored through the edits module and told as an edits change', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Use Answer' });
    const asking = h.sim.control.seedEdit({ brandId, status: 'input_required' });
    const engine = h.open();
    const { edit: shown } = await showEdit(engine, brandId, asking.id);
    const interactionId = shown.interaction?.id as string;
    expect(interactionId).toBeTruthy();
    const changed: string[] = [];
    const off = engine.events.on('edits:changed', (e) => void changed.push(e.brandId));
    const answered = await answerEdit(engine, brandId, asking.id, {
      interactionId,
      text: 'Yes, the accent too.',
    });
    off();
    expect(answered.status).not.toBe('input_required');
    expect(engine.store.edits.get(brandId, asking.id)?.status).toBe(answered.status);
    expect(changed).toEqual([brandId]);
  });
});

describe('the CLI around them', () => {
  test('apply, stale: exit 1, the engine’s sentence on stderr, the current Skill said on stdout', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Stale' });
    const first = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const second = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    expect((await cli(['edits', 'apply', brandId, first.id])).code).toBe(0);
    const stale = await cli(['edits', 'apply', brandId, second.id]);
    expect(stale.code).toBe(1);
    expect(lines(stale.stderr)).toEqual([
      `brand-sync: BRAND_EDIT_STALE: The brand changed while edit ${second.id} waited for approval (its active Skill is now ${first.targetSkillId}), so the edit is stale and was not applied. The edit list was refreshed; ask for a new edit on the current brand.`,
      'Bringing the Brand Skill to disk…',
    ]);
    expect(stale.stdout).toMatch(/Brand Skill of "Cli Stale" is up to date/);
    const json = await cli(['edits', 'apply', brandId, second.id, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      edit: null,
      applied: false,
      error: { code: 'BRAND_EDIT_STALE' },
      export: { ran: true, ok: true, skillId: first.targetSkillId },
    });
  });

  test('apply: the steps said on stderr in order, the result on stdout', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Applied' });
    const edit = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const result = await cli(['edits', 'apply', brandId, edit.id]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([
      `Applied edit ${edit.id}: the candidate is now the active brand.`,
      'Bringing the Brand Skill to disk…',
    ]);
    expect(lines(result.stdout)[0]).toBe(`Applied edit ${edit.id} to brand ${brandId} (applied).`);
  });

  test('discard in a state that refuses it: exit 1 naming the real state', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Discarding' });
    const stale = h.sim.control.seedEdit({ brandId, status: 'stale' });
    const refused = await cli(['edits', 'discard', brandId, stale.id, '--json']);
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toEqual([
      `brand-sync: BRAND_EDIT_STATE_CONFLICT: Edit ${stale.id} cannot be discarded: it is stale (the brand changed while the edit waited).`,
    ]);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: { code: 'BRAND_EDIT_STATE_CONFLICT', data: { editId: stale.id, status: 'stale' } },
    });
  });

  test('show --json: the question, from the service', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Showing' });
    const asking = h.sim.control.seedEdit({ brandId, status: 'input_required' });
    const json = await cli(['edits', 'show', brandId, asking.id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: asking.id,
      status: 'input_required',
      source: 'service',
      interaction: {
        subject: 'Primary colour',
        accepts: { text: { required: true, maxLength: 10000 } },
      },
    });
  });

  test('show: the diff of an edit awaiting approval, and how to apply it', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Diff' });
    const waiting = h.sim.control.seedEdit({
      brandId,
      status: 'awaiting_approval',
      colorHex: '#123456',
    });
    const diff = await cli(['edits', 'show', brandId, waiting.id]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/^ {2}colors\[0\]\.hex: #\w{6} → #123456 \(replace\)$/m);
    expect(diff.stdout).toMatch(/^ {4}@@ -12,1 \+12,2 @@$/m);
    expect(diff.stdout).toMatch(/^ {4}\+- Refresh the primary colour to #123456$/m);
    expect(diff.stdout).toContain(`Apply it with: brand-sync edits apply ${brandId} ${waiting.id}`);
  });

  test('list --json, and a brand with none', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Listing' });
    const novel = h.sim.control.seedEdit({ brandId, status: 'under_review' });
    const json = await cli(['edits', 'list', brandId, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      brandId,
      source: 'service',
      syncedAt: null,
      edits: [{ id: novel.id, status: 'under_review' }],
    });
    const { id: quiet } = await h.sim.control.seedBrand({ name: 'Cli Quiet' });
    expect((await cli(['edits', 'list', quiet])).stdout).toBe('No Brand Edits for this brand.\n');
  });

  test('a service without the list endpoint: exit 1 with a clear message', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli No List' });
    h.sim.control.failNext('GET /v1/brands/{id}/edits', { status: 404, code: 'NOT_FOUND' });
    const result = await cli(['edits', 'list', brandId]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^brand-sync: FEATURE_UNAVAILABLE: This service does not offer a list of Brand Edits/,
      ),
    ]);
  });

  test('an unknown edit: exit 1 with the service’s code', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Cli Unknown Edit' });
    const result = await cli(['edits', 'show', brandId, '0d0e0a0d-0000-4000-8000-0000000000ee']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^brand-sync: BRAND_EDIT_NOT_FOUND: /);
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
  ])('bad usage %j: exit 2, one line', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});
