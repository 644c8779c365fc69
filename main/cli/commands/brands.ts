// `brands list|show|create|delete`: the brands on the service.
import fs from 'node:fs';
import type { Command } from 'commander';
import {
  brandFailureAction,
  duplicateBrandsOf,
  type Brand,
  type BrandSource,
  type CreateBrandInput,
} from '../../engine/api/index.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { CommandFailure, EXIT, fields, table, UsageError, type ExitCode } from '../output.ts';
import { resolveBrand } from '../resolve.ts';

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

async function createBrand(ctx: CliContext, command: Command): Promise<ExitCode> {
  const options = command.opts<CreateOptions>();
  const client = ctx.client();
  const sources: BrandSource[] = [
    { kind: 'website', url: requireUrl(options.website, '--website') },
  ];
  if (options.instagram !== undefined)
    sources.push({ kind: 'instagram', url: requireUrl(options.instagram, '--instagram') });
  const localPdfs = options.pdf.filter((pdf) => !isHttpUrl(pdf));
  localPdfs.forEach(checkLocalPdf); // every file is checked before anything is sent
  for (const pdf of options.pdf) {
    if (isHttpUrl(pdf)) {
      sources.push({ kind: 'pdf', url: pdf });
      continue;
    }
    ctx.output.note(`Uploading ${pdf}…`);
    const staged = await client.stageFile(
      { path: pdf, mimeType: 'application/pdf' },
      { signal: ctx.signal, ...(options.workspace ? { workspaceId: options.workspace } : {}) },
    );
    sources.push({ kind: 'pdf', uploadId: staged.id });
  }
  const input: CreateBrandInput = {
    sources,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.allowDuplicate ? { allowDuplicate: true } : {}),
    ...(options.workspace !== undefined ? { workspaceId: options.workspace } : {}),
  };
  // The key is fixed before the first send: every retry of this creation re-sends it with the same body.
  const prepared = client.prepareBrandCreation(input);
  let created;
  try {
    created = await client.sendBrandCreation(prepared, { signal: ctx.signal });
  } catch (error) {
    const matches = duplicateBrandsOf(error);
    if (matches === undefined) throw error;
    const list = matches.map((b) => `${b.id} (${b.name ?? b.url ?? 'unnamed'})`).join(', ');
    throw new CommandFailure(
      'DUPLICATE_BRAND',
      `a brand with this website already exists: ${list || 'see brands list'}. Use it, or pass --allow-duplicate to create another.`,
      { brands: matches },
    );
  }
  if (!options.wait) {
    ctx.output.result(
      { id: created.id, status: created.status, idempotencyKey: prepared.idempotencyKey },
      () =>
        `Created brand ${created.id} (${created.status}). Follow it with: brand-sync brands show ${created.id}`,
    );
    return EXIT.ok;
  }
  ctx.output.note(`Created brand ${created.id}; waiting while the service analyses its sources…`);
  const brand = await client.waitForBrand(created.id, {
    signal: ctx.signal,
    onUpdate: (b) => ctx.output.note(`  still ${b.status}…`),
  });
  ctx.output.result({ ...brandDoc(brand), idempotencyKey: prepared.idempotencyKey }, () =>
    brand.status === 'ready'
      ? `Brand ${brand.id} is ready: ${displayName(brand)}.`
      : `Brand ${brand.id} ended ${brand.status}.`,
  );
  if (brand.status === 'ready') return EXIT.ok;
  if (brand.status === 'failed') ctx.output.problem(describeBrandFailure(brand));
  else ctx.output.problem(`brand ${brand.id} is ${brand.status}, not ready.`);
  return EXIT.failed;
}

function describeBrandFailure(brand: Brand): string {
  const code = brand.failure?.code ?? 'FAILED';
  const message = brand.failure?.message ?? 'the brand could not be created';
  const next = {
    'fix-input': 'Correct the source, then create the brand again.',
    'retry-later': 'Try again later (a new creation).',
    unknown: '',
  }[brandFailureAction(brand.failure?.code)];
  return `${code}: ${message}${next ? ` ${next}` : ''}`;
}

async function deleteBrand(ctx: CliContext, command: Command): Promise<void> {
  const id = await resolveBrand(ctx, command.processedArgs[0] as string);
  const deleted = await ctx.client().deleteBrand(id, { signal: ctx.signal });
  ctx.output.result(
    { id, name: deleted.name ?? null, deleted: true },
    () =>
      `Deleted brand ${id}${deleted.name ? ` (${deleted.name})` : ''} on the service. Local folders are kept.`,
  );
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
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

function checkLocalPdf(file: string): void {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      head = Buffer.alloc(5);
      fs.readSync(fd, head, 0, 5, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    throw new UsageError(
      code === 'ENOENT'
        ? `--pdf ${file}: no such file.`
        : `--pdf ${file}: cannot be read (${code}).`,
    );
  }
  if (head.toString('latin1') !== '%PDF-') throw new UsageError(`--pdf ${file}: not a PDF file.`);
}
