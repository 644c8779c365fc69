// `brands list|show|create|delete`: the brands on the service.
import type { Command } from 'commander';
import { isBrandSettled, type Brand, type DuplicateBrand } from '../../../engine/api/index.ts';
import {
  brandFailureAdvice,
  BrandCreationInputError,
  checkCreationRequest,
  creationSources,
  deleteBrand as deleteBrandOnService,
  runCreation,
  startBrandCreation,
  type BrandCreationResult,
  type SourceSpec,
} from '../../../engine/brands/index.ts';
import type { JobRunOutcome } from '../../../engine/queue/index.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { withEngine } from '../engine.ts';
import { CommandFailure, EXIT, fields, table, UsageError, type ExitCode } from '../output.ts';
import { resolveBrand } from '../resolve.ts';
import { resultOf } from './exports.ts';

export function registerBrands(program: Command, deps: CliDeps): void {
  const brands = program.command('brands').description('list, show, create and delete brands');

  brands
    .command('list')
    .description('list every brand')
    .option('--json', 'print one JSON document')
    .action(action(deps, listBrands));

  brands
    .command('show')
    .description('show one brand')
    .argument('<id>', 'the brand ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, showBrand));

  brands
    .command('create')
    .description(
      'create a brand from its sources (safe to retry: one brand results); prints its ID',
    )
    .requiredOption('--website <url>', 'the brand website')
    .option(
      '--pdf <file>',
      'a brand guide PDF: a local file or an https URL (repeatable)',
      collect,
      [],
    )
    .option('--instagram <url>', 'the Instagram profile of the brand')
    .option('--instructions <text>', 'instructions for the analysis (at most 4000 characters)')
    .option('--allow-duplicate', 'create it even when a brand with this website exists')
    .option('--workspace <id>', 'a team workspace ID (default: your personal workspace)')
    .option('--wait', 'wait until the brand is ready or failed')
    .option('--json', 'print one JSON document')
    .action(action(deps, createBrand));

  brands
    .command('delete')
    .description('delete a brand on the service (local folders are kept)')
    .argument('<id>', 'the brand ID')
    .option('--yes', 'do not ask for a confirmation (for scripts)')
    .action(action(deps, deleteBrand));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The stable JSON shape of a brand: the same keys every time, null when unknown. */
export function brandDoc(brand: Brand): Record<string, unknown> {
  return {
    id: brand.id,
    name: brand.name ?? null,
    status: brand.status,
    url: brand.url ?? null,
    workspaceId: brand.workspaceId ?? null,
    workspaceName: brand.workspaceName ?? null,
    skillId: brand.skillId ?? null,
    failure: brand.failure
      ? { code: brand.failure.code ?? null, message: brand.failure.message ?? null }
      : null,
    createdAt: brand.createdAt ?? null,
  };
}

function displayName(brand: Pick<Brand, 'id' | 'name'>): string {
  return brand.name || brand.id;
}

async function listBrands(ctx: CliContext): Promise<void> {
  const all: Brand[] = [];
  for await (const brand of ctx.client().brands({}, { signal: ctx.signal })) all.push(brand);
  ctx.output.result({ brands: all.map(brandDoc) }, () =>
    all.length === 0
      ? 'No brands yet. Create one with: brand-sync brands create --website URL'
      : table(
          ['ID', 'STATUS', 'NAME', 'WORKSPACE'],
          all.map((b) => [
            b.id,
            b.status,
            b.name ?? '',
            b.workspaceName ?? (b.workspaceId ? b.workspaceId : 'personal'),
          ]),
        ),
  );
}

async function showBrand(ctx: CliContext, command: Command): Promise<void> {
  const id = await resolveBrand(ctx, command.processedArgs[0] as string);
  const brand = await ctx.client().getBrand(id, { signal: ctx.signal });
  ctx.output.result(
    { ...brandDoc(brand), summary: brand.summary ?? null, logoUrl: brand.logoUrl ?? null },
    () =>
      fields([
        ['Name', displayName(brand)],
        ['ID', brand.id],
        ['Status', brand.status],
        ['Website', brand.url],
        ['Workspace', brand.workspaceName ?? brand.workspaceId ?? 'personal'],
        ['Skill', brand.skillId],
        [
          'Failure',
          brand.failure
            ? `${brand.failure.code ?? ''} ${brand.failure.message ?? ''}`.trim()
            : undefined,
        ],
        ['Created', brand.createdAt],
        ['Summary', brand.summary],
      ]),
  );
}

interface CreateOptions {
  website: string;
  pdf: string[];
  instagram?: string;
  instructions?: string;
  allowDuplicate?: boolean;
  workspace?: string;
  wait?: boolean;
}

/** The sources in the order the service reads them: the website, the PDFs, then Instagram. */
function sourcesOf(options: CreateOptions): SourceSpec[] {
  return creationSources({
    website: requireUrl(options.website, '--website'),
    pdfs: options.pdf,
    instagram:
      options.instagram === undefined ? undefined : requireUrl(options.instagram, '--instagram'),
  });
}

async function createBrand(ctx: CliContext, command: Command): Promise<ExitCode> {
  const options = command.opts<CreateOptions>();
  // Every limit is checked, and every local file read, before anything is sent.
  let request;
  try {
    request = await checkCreationRequest({
      sources: sourcesOf(options),
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(options.allowDuplicate ? { allowDuplicate: true } : {}),
      ...(options.workspace !== undefined ? { workspaceId: options.workspace } : {}),
    });
  } catch (error) {
    if (error instanceof BrandCreationInputError) throw new UsageError(error.message);
    throw error;
  }
  return withEngine(ctx, async (engine) => {
    // The same request resumes the creation under way (same key, same body, or the Brand ID
    // already received): a command killed after its POST and run again creates one brand.
    const started = startBrandCreation(engine, request, { follow: options.wait === true });
    if (started.mode !== 'new') {
      ctx.output.note(
        `Resuming the creation asked for earlier with the same sources (one brand results).`,
      );
    }
    if (options.wait) {
      ctx.output.note('Creating the brand; waiting while the service analyses its sources…');
    }
    const outcome = await runCreation(engine, started, ctx.signal);
    const result = creationResult(outcome);
    let brand = result.brand;
    if (options.wait && !isBrandSettled(brand)) {
      // Resumed from a run that did not wait: follow the Brand ID, never create again.
      brand = await engine.client.waitForBrand(result.brandId, {
        signal: ctx.signal,
        onUpdate: (b) => ctx.output.note(`  still ${b.status}…`),
      });
      engine.store.brands.upsertFromService(brand);
    }
    const resumed = started.mode !== 'new';
    if (!options.wait) {
      ctx.output.result(
        { id: brand.id, status: brand.status, idempotencyKey: result.idempotencyKey, resumed },
        () =>
          `Created brand ${brand.id} (${brand.status}). Follow it with: brand-sync brands show ${brand.id}`,
      );
      return EXIT.ok;
    }
    ctx.output.result({ ...brandDoc(brand), idempotencyKey: result.idempotencyKey, resumed }, () =>
      brand.status === 'ready'
        ? [
            `Brand ${brand.id} is ready: ${displayName(brand)}.`,
            'Its Brand Skill comes to disk with the next sync (or now: brand-sync exports sync ' +
              `${brand.id}).`,
          ]
        : `Brand ${brand.id} ended ${brand.status}.`,
    );
    if (brand.status === 'ready') return EXIT.ok;
    if (brand.status === 'failed') ctx.output.problem(describeBrandFailure(brand));
    else ctx.output.problem(`brand ${brand.id} is ${brand.status}, not ready.`);
    return EXIT.failed;
  });
}

/** The creation job's result; its other ends become one clear failure (exit 1). */
function creationResult(outcome: JobRunOutcome): BrandCreationResult {
  if (outcome.state === 'failed' && outcome.error.code === 'DUPLICATE_BRAND') {
    const matches = duplicatesIn(outcome.error.data);
    const list = matches.map((b) => `${b.id} (${b.name ?? b.url ?? 'unnamed'})`).join(', ');
    throw new CommandFailure(
      'DUPLICATE_BRAND',
      `a brand with this website already exists: ${list || 'see brands list'}. Use it, or pass --allow-duplicate to create another anyway.`,
      { brands: matches },
    );
  }
  if (outcome.state === 'halted') {
    throw new CommandFailure(
      outcome.code,
      `${outcome.message}. The creation is kept with its idempotency key: run the same command again to resume it (it creates one brand, not two).`,
    );
  }
  return resultOf(outcome) as BrandCreationResult;
}

function duplicatesIn(data: unknown): DuplicateBrand[] {
  const brands = (data as { brands?: unknown } | null)?.brands;
  return Array.isArray(brands) ? (brands as DuplicateBrand[]) : [];
}

function describeBrandFailure(brand: Brand): string {
  const { code, message, advice } = brandFailureAdvice(brand.failure);
  const text = (message ?? 'the brand could not be created').trim().replace(/\.+$/, '');
  return `${code}: ${text}. ${advice}`;
}

async function deleteBrand(ctx: CliContext, command: Command): Promise<void> {
  const id = await resolveBrand(ctx, command.processedArgs[0] as string);
  // On a terminal a person confirms; a script (no terminal) or --yes goes ahead.
  if (
    command.opts<{ yes?: boolean }>().yes !== true &&
    process.stdin.isTTY &&
    process.stderr.isTTY
  ) {
    const answer = await ask(
      `Delete brand ${id} on the service, for everyone in its workspace? This cannot be undone; its folder stays on this computer. [y/N] `,
      ctx.signal,
    );
    if (!/^y(es)?$/i.test(answer.trim())) {
      throw new CommandFailure('CANCELLED', 'nothing was deleted.');
    }
  }
  await withEngine(ctx, async (engine) => {
    const deleted = await deleteBrandOnService(engine, id, ctx.signal);
    ctx.output.result(
      { id, name: deleted.name, deleted: true, folderKept: deleted.folderName },
      () => [
        `Deleted brand ${id}${deleted.name ? ` (${deleted.name})` : ''} on the service.`,
        deleted.folderName
          ? `Its folder "${deleted.folderName}" stays on disk, untouched; Brand Sync no longer syncs it.`
          : 'Local folders are kept: nothing on disk was deleted.',
      ],
    );
  });
}

function requireUrl(value: string, option: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`${option} needs an http(s) URL, got "${value}".`);
}

/** One line from the terminal, the question on stderr (stdout stays the command's output). */
async function ask(question: string, signal: AbortSignal): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question, { signal });
  } finally {
    rl.close();
  }
}
