// `skills add|show|delete ID`: beta Brand Skill jobs (the /brand-skills flow), by their beta
// ID. `add` tracks the job and, unless --no-wait, waits until its Skill is on disk.
import type { Command } from 'commander';
import type { BrandSkill } from '../../../engine/api/index.ts';
import {
  addBetaSkill,
  betaFields,
  BetaSkillInputError,
  brandSkillSyncKey,
  brandSkillSyncKind,
  deleteBetaSkill,
  showBetaSkill,
  type BrandSkillSyncResult,
  type TrackedSkill,
} from '../../../engine/brand-skills/index.ts';
import { runJobNow } from '../../../engine/queue/index.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { withEngine } from '../engine.ts';
import { EXIT, fields, UsageError, type ExitCode } from '../output.ts';
import { resultOf } from './exports.ts';

export function registerSkills(program: Command, deps: CliDeps): void {
  const skills = program
    .command('skills')
    .description('beta Brand Skill jobs (started before the migration to brands)');

  skills
    .command('add')
    .description(
      'track a beta Brand Skill job; its Skill is stored in a brand folder once completed',
    )
    .argument('<id>', 'the beta Brand Skill ID')
    .option('--no-wait', 'only track it; sync --once or run stores it when it completes')
    .option('--json', 'print one JSON document')
    .action(action(deps, addSkill));

  skills
    .command('show')
    .description('show a beta Brand Skill job, as the service and this machine know it')
    .argument('<id>', 'the beta Brand Skill ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, showSkill));

  skills
    .command('delete')
    .description('delete a beta Brand Skill job on the service (its local folder is kept)')
    .argument('<id>', 'the beta Brand Skill ID')
    .action(action(deps, deleteSkill));
}

function idArgument(command: Command): string {
  return (command.processedArgs[0] as string).trim();
}

/** Input errors of the engine become bad usage (exit 2). */
async function usage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BetaSkillInputError) throw new UsageError(error.message);
    throw error;
  }
}

async function addSkill(ctx: CliContext, command: Command): Promise<ExitCode> {
  const id = idArgument(command);
  const wait = command.opts<{ wait: boolean }>().wait;
  return withEngine(ctx, async (engine) => {
    const { record, added } = await usage(() => addBetaSkill(engine, id));
    if (!wait) {
      ctx.output.result({ id: record.id, added, tracked: trackedDoc(record) }, () =>
        added
          ? `Tracking beta Brand Skill ${record.id}; sync --once or run stores its Skill once it is completed.`
          : `Beta Brand Skill ${record.id} was already tracked.`,
      );
      return EXIT.ok;
    }
    ctx.output.note(`Waiting for beta Brand Skill ${record.id} to complete…`);
    const outcome = await runJobNow(
      engine.queue,
      brandSkillSyncKind,
      { id: record.id },
      brandSkillSyncKey(record.id),
      { signal: ctx.signal },
    );
    const result = resultOf(outcome) as BrandSkillSyncResult;
    ctx.output.result(result, () =>
      [result.message, ''].concat(
        fields([
          ['ID', result.id],
          ['Brand', result.brandName],
          ['Brand ID', result.brandId],
          ['Skill', result.skillId],
          ['Folder', result.path],
          ['Files', result.files],
        ]),
      ),
    );
    return EXIT.ok;
  });
}

async function showSkill(ctx: CliContext, command: Command): Promise<void> {
  const id = idArgument(command);
  await withEngine(ctx, async (engine) => {
    const { service, tracked } = await usage(() => showBetaSkill(engine, id, ctx.signal));
    const doc = skillDoc(service, tracked);
    ctx.output.result(doc, () =>
      fields([
        ['ID', doc.id],
        ['Brand', doc.brandName],
        ['Brand ID', doc.brandId],
        ['Status', doc.status],
        ['Skill', doc.skillId],
        ['Failure', doc.failure ? `${doc.failure.code ?? ''} ${doc.failure.message ?? ''}` : null],
        ['ZIP', doc.zip === null ? null : 'ready (`brand-sync skills add ID` stores it unpacked)'],
        ['Tracked', doc.tracked ? 'yes' : 'no (add it with: brand-sync skills add ID)'],
        ['Folder', doc.tracked?.folderName],
        ['Installed', doc.tracked?.installedSkillId],
      ]),
    );
  });
}

async function deleteSkill(ctx: CliContext, command: Command): Promise<void> {
  const id = idArgument(command);
  await withEngine(ctx, async (engine) => {
    const { tracked } = await usage(() => deleteBetaSkill(engine, id, ctx.signal));
    ctx.output.result({ id, deleted: true, folder: tracked?.folderName ?? null }, () =>
      [`Deleted beta Brand Skill ${id.toLowerCase()} on the service.`].concat(
        tracked?.folderName
          ? [`Its folder "${tracked.folderName}" was kept, with its Brand Skill/.`]
          : [],
      ),
    );
  });
}

/** The stable JSON shape of a beta job: the same keys every time, null when unknown. */
function skillDoc(service: BrandSkill, tracked: TrackedSkill | null) {
  const { brandName, skillId, failure } = betaFields(service);
  return {
    id: service.id,
    brandId: service.brandId ?? null,
    brandName,
    status: service.status,
    skillId,
    failure,
    zip: service.zip?.url ? 'url' : service.zip?.contentBase64 ? 'base64' : null,
    tracked: tracked === null ? null : trackedDoc(tracked),
  };
}

function trackedDoc(record: TrackedSkill) {
  return {
    status: record.status,
    folderName: record.folderName,
    installedSkillId: record.installedSkillId,
    installedAt: record.installedAt === null ? null : new Date(record.installedAt).toISOString(),
    addedAt: new Date(record.addedAt).toISOString(),
  };
}
