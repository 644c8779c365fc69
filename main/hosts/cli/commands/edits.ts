// `edits list|show|apply|discard BRAND [EDIT]`: Brand Edits, the changes the service proposes
// for a brand. Apply makes the candidate the active brand, and the new Brand Skill is brought
// to disk right after (by the export sync's own job); a stale edit brings the brand's current
// Skill instead.
import type { Command } from 'commander';
import { isUuid } from '../../../engine/api/index.ts';
import {
  applyEditAndBringSkill,
  discardEdit,
  EditActionError,
  editChangeLines,
  editDoc,
  editStateLine,
  listEdits,
  showEdit,
  type EditDoc,
} from '../../../engine/edits/index.ts';
import type { SkillDelivery } from '../../../engine/export-sync/bring-skill.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { withEngine } from '../engine.ts';
import { CommandFailure, EXIT, fields, table, UsageError, type ExitCode } from '../output.ts';
import { resolveBrand } from '../resolve.ts';
import { ago } from '../time-format.ts';

export function registerEdits(program: Command, deps: CliDeps): void {
  const edits = program
    .command('edits')
    .description('Brand Edits: changes the service proposes for a brand, to apply or discard');

  edits
    .command('list')
    .description("list the brand's edits and their states")
    .argument('<brand>', 'the brand ID or the name of its folder')
    .option('--json', 'print one JSON document')
    .action(action(deps, listCommand));

  edits
    .command('show')
    .description('show an edit: its state, its question, and its changes as a diff')
    .argument('<brand>', 'the brand ID or the name of its folder')
    .argument('<edit>', 'the edit ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, showCommand));

  edits
    .command('apply')
    .description('make the edit the active brand, then bring its Brand Skill to disk')
    .argument('<brand>', 'the brand ID or the name of its folder')
    .argument('<edit>', 'the edit ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, applyCommand));

  edits
    .command('discard')
    .description('end the edit without changing the brand')
    .argument('<brand>', 'the brand ID or the name of its folder')
    .argument('<edit>', 'the edit ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, discardCommand));
}

async function brandAndEdit(
  ctx: CliContext,
  command: Command,
): Promise<{ brandId: string; editId: string }> {
  const brandId = await resolveBrand(ctx, command.processedArgs[0] as string);
  const editArg = (command.processedArgs[1] as string | undefined)?.trim() ?? '';
  if (!isUuid(editArg)) {
    throw new UsageError(
      `"${editArg}" is not an edit ID (a UUID; brand-sync edits list shows them).`,
    );
  }
  return { brandId, editId: editArg.toLowerCase() };
}

/** The engine's explained refusals become one clear failure line (exit 1). */
async function explained<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EditActionError)
      throw new CommandFailure(error.code, error.message, error.data);
    throw error;
  }
}

function summaryOf(edit: EditDoc): string {
  return edit.changeSummary ?? edit.statusMessage ?? '';
}

async function listCommand(ctx: CliContext, command: Command): Promise<void> {
  const brandId = await resolveBrand(ctx, command.processedArgs[0] as string);
  await withEngine(ctx, async (engine) => {
    const listing = await explained(() => listEdits(engine, brandId, ctx.signal));
    const docs = listing.edits.map(editDoc);
    ctx.output.result(
      {
        brandId,
        source: listing.source,
        syncedAt: listing.syncedAt === null ? null : new Date(listing.syncedAt).toISOString(),
        edits: docs,
      },
      () => {
        const lines: string[] = [];
        if (listing.source === 'store' && listing.syncedAt !== null) {
          lines.push(
            `The service cannot be reached; edits as last synced ${ago(listing.syncedAt)}.`,
          );
        }
        if (docs.length === 0) return [...lines, 'No Brand Edits for this brand.'];
        lines.push(
          ...table(
            ['ID', 'STATUS', 'UPDATED', 'SUMMARY'],
            docs.map((d) => [d.id, d.status, d.updatedAt ?? '', summaryOf(d)]),
          ),
        );
        const waiting = docs.filter((d) => d.status === 'awaiting_approval').length;
        const asking = docs.filter((d) => d.status === 'input_required').length;
        if (waiting > 0)
          lines.push(
            '',
            `${waiting} awaiting approval: brand-sync edits show ${brandId} EDIT, then apply or discard.`,
          );
        if (asking > 0)
          lines.push(`${asking} with a question: brand-sync edits show ${brandId} EDIT shows it.`);
        return lines;
      },
    );
  });
}

/** The header fields of an edit, then its question and change set. */
function editLines(doc: EditDoc, brandId: string): string[] {
  const lines = fields([
    ['Edit', doc.id],
    ['Brand', doc.brandId ?? brandId],
    ['Status', editStateLine(doc)],
    ['Message', doc.statusMessage],
    ['Summary', doc.changeSummary],
    [
      'Skill',
      doc.baseSkillId || doc.targetSkillId
        ? `${doc.baseSkillId ?? '?'} → ${doc.targetSkillId ?? '?'}`
        : null,
    ],
    [
      'Error',
      doc.error
        ? `${doc.error.code ?? 'ERROR'}: ${doc.error.message ?? ''}${doc.error.retryable ? ' (retryable)' : ''}`
        : null,
    ],
    ['Replaced by', doc.replacement?.replacedByEditId],
    ['Replaces', doc.replacement?.replacesEditId],
    ['Created', doc.createdAt],
    ['Updated', doc.updatedAt],
  ]);
  lines.push(...editChangeLines(doc));
  if (doc.targetProfile) {
    const p = doc.targetProfile;
    const type = p.typography;
    lines.push('', 'Candidate profile:');
    lines.push(
      ...fields([
        ['  Name', p.name],
        ['  Colours', p.colors.join(', ')],
        ['  Headings', type?.heading?.family],
        ['  Body text', type?.body?.family],
        ['  Logo', p.primaryLogoImageId],
      ]),
    );
  }
  const next: Record<string, string> = {
    awaiting_approval: `Apply it with: brand-sync edits apply ${brandId} ${doc.id} (or discard it).`,
    input_required: `It needs an answer to its question on the service before it can go on; or discard it: brand-sync edits discard ${brandId} ${doc.id}`,
    preparing: 'The service is still preparing it; look again shortly.',
  };
  const hint = next[doc.status];
  if (hint) lines.push('', hint);
  return lines;
}

async function showCommand(ctx: CliContext, command: Command): Promise<void> {
  const { brandId, editId } = await brandAndEdit(ctx, command);
  await withEngine(ctx, async (engine) => {
    const { edit, source } = await explained(() => showEdit(engine, brandId, editId, ctx.signal));
    const doc = editDoc(edit);
    ctx.output.result({ ...doc, source }, () => [
      ...(source === 'store' ? ['(as last synced: the service did not answer)', ''] : []),
      ...editLines(doc, brandId),
    ]);
  });
}

async function applyCommand(ctx: CliContext, command: Command): Promise<ExitCode> {
  const { brandId, editId } = await brandAndEdit(ctx, command);
  return withEngine(ctx, async (engine) => {
    const applied = await explained(() =>
      applyEditAndBringSkill(engine, brandId, editId, {
        signal: ctx.signal,
        onAnswered: ({ edit, stale }) => {
          if (stale !== null) ctx.output.problem(`${stale.code}: ${stale.message}`);
          else ctx.output.note(`Applied edit ${edit.id}: the candidate is now the active brand.`);
          if (engine.features.some((f) => f.name === 'exports')) {
            ctx.output.note('Bringing the Brand Skill to disk…');
          }
        },
      }),
    );
    const synced = applied.skill;
    if (synced.ran && !synced.ok) {
      ctx.output.problem(
        `the Brand Skill could not be brought to disk (${synced.message}); brand-sync exports sync ${brandId} tries again.`,
      );
    }
    if (applied.stale !== null) {
      // The brand moved on: its current Skill is what was brought to disk.
      const { code, message, data } = applied.stale;
      ctx.output.result(
        {
          edit: null,
          applied: false,
          error: { code, message, data: data ?? null },
          export: synced,
        },
        () => exportLine(synced, brandId),
      );
      return EXIT.failed;
    }
    const doc = editDoc(applied.edit);
    ctx.output.result({ edit: doc, applied: true, export: synced }, () => [
      `Applied edit ${doc.id} to brand ${brandId} (${doc.status}).`,
      exportLine(synced, brandId),
    ]);
    return EXIT.ok;
  });
}

function exportLine(synced: SkillDelivery, brandId: string): string {
  if (!synced.ran) return synced.message;
  return synced.ok
    ? synced.message
    : `The Brand Skill on disk was not updated; run: brand-sync exports sync ${brandId}`;
}

async function discardCommand(ctx: CliContext, command: Command): Promise<void> {
  const { brandId, editId } = await brandAndEdit(ctx, command);
  await withEngine(ctx, async (engine) => {
    const edit = await explained(() => discardEdit(engine, brandId, editId, ctx.signal));
    const doc = editDoc(edit);
    ctx.output.result(
      { edit: doc, discarded: true },
      () => `Discarded edit ${doc.id} (${doc.status}); brand ${brandId} is unchanged.`,
    );
  });
}
