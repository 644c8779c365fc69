// `images show ID [--wait]` and `images edit ID --prompt TEXT --brand BRAND [--model M]
// [--size 2K|4K] [--ref ID]... [--wait]`. An edit costs credits: the cost is shown before it
// is sent, and a balance known to be short refuses it here (unless the workspace is unlimited).
import { Option, type Command } from 'commander';
import type { Image } from '../../../engine/api/index.ts';
import { isUuid } from '../../../engine/api/index.ts';
import {
  credits,
  IMAGE_MODELS,
  IMAGE_SIZES,
  imageFailureAdvice,
  ImageEditRefused,
  isImageFinished,
  imageEditsOf,
  planImageEdit,
  workspaceLabel,
  type ImageEditState,
  type ImageModel,
  type ImageSize,
} from '../../../engine/images/index.ts';
import { Follower } from '../../../engine/follow/follower.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { withEngine } from '../engine.ts';
import { CommandFailure, EXIT, fields, UsageError, type ExitCode } from '../output.ts';
import { resolveBrand } from '../resolve.ts';

export function registerImages(program: Command, deps: CliDeps): void {
  const images = program
    .command('images')
    .description('images: look at one, or edit it with a prompt');

  images
    .command('show')
    .description('show an image (generated, uploaded or scraped)')
    .argument('<id>', 'the image ID')
    .option('--wait', 'wait until the image is completed or failed')
    .option('--json', 'print one JSON document')
    .action(action(deps, showImage));

  images
    .command('edit')
    .description(
      'edit an image with a prompt (2K costs 1 credit, 4K costs 2); prints the new image ID',
    )
    .argument('<id>', 'the ID of a completed or uploaded image')
    .requiredOption('--prompt <text>', 'the change to make, 1-2000 characters (required)')
    .requiredOption(
      '--brand <brand>',
      'the brand the edit is for: its ID or folder name (required)',
    )
    .addOption(
      new Option(
        '--model <model>',
        'fast, standard or pro (default: the service picks pro)',
      ).choices(IMAGE_MODELS),
    )
    .addOption(new Option('--size <size>', 'output size').choices(IMAGE_SIZES).default('2K'))
    .option('--ref <id>', 'a reference image ID (repeatable, at most 9)', collect, [])
    .option('--wait', 'wait until the new image is completed or failed')
    .option('--json', 'print one JSON document')
    .action(action(deps, editImage));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function imageId(command: Command): string {
  const id = (command.processedArgs[0] as string).trim();
  if (!isUuid(id)) throw new UsageError(`"${id}" is not an image ID (a UUID).`);
  return id.toLowerCase();
}

/** The stable JSON shape of an image: the same keys every time, null when unknown. */
export function imageDoc(image: Image): Record<string, unknown> {
  return {
    id: image.id,
    status: image.status,
    failureReason: image.failureReason ?? null,
    advice: imageFailureAdvice(image),
    source: image.source ?? null,
    actionType: image.actionType ?? null,
    prompt: image.prompt ?? null,
    description: image.description ?? null,
    imageUrl: image.imageUrl ?? null,
    aspectRatio: image.aspectRatio ?? null,
    width: image.width ?? null,
    height: image.height ?? null,
    variantGroupId: image.variantGroupId ?? null,
    workspaceId: image.workspaceId ?? null,
    workspaceName: image.workspaceName ?? null,
    createdAt: image.createdAt ?? null,
  };
}

function imageLines(image: Image): string[] {
  const advice = imageFailureAdvice(image);
  return [
    ...fields([
      ['ID', image.id],
      ['Status', image.status],
      ['Failure', image.failureReason],
      ['Source', image.source],
      ['Action', image.actionType],
      ['Prompt', image.prompt],
      ['Description', image.description],
      ['URL', image.imageUrl],
      ['Aspect', image.aspectRatio],
      ['Size', image.width && image.height ? `${image.width}×${image.height}` : null],
      ['Workspace', image.workspaceName ?? image.workspaceId],
      ['Created', image.createdAt],
    ]),
    ...(advice ? ['', advice] : []),
  ];
}

/** Until completed or failed: any other status, known or not, is still running. */
async function follow(ctx: CliContext, id: string): Promise<Image> {
  ctx.output.note(`Waiting for image ${id}…`);
  const client = ctx.client();
  const follower = new Follower();
  const stop = () => follower.stop();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const image = await follower.follow<Image>({
      key: id,
      longPoll: true,
      look: ({ wait, signal }) => client.getImage(id, { wait, signal }),
      settled: (image) => isImageFinished(image.status),
      stateOf: (image) => image.status,
      changed: (image) => {
        if (!isImageFinished(image.status)) ctx.output.note(`  still ${image.status}…`);
      },
    });
    // Stopped, or gone: one plain look says which (and fails the command when gone).
    return image ?? (await client.getImage(id, { signal: ctx.signal }));
  } finally {
    ctx.signal.removeEventListener('abort', stop);
  }
}

/** After a wait: a failed image fails the command, with its advice. */
function waitedExit(ctx: CliContext, image: Image): ExitCode {
  if (image.status !== 'failed') return EXIT.ok;
  const advice = imageFailureAdvice(image);
  ctx.output.problem(
    `image ${image.id} failed${image.failureReason ? ` (${image.failureReason})` : ''}.${advice ? ` ${advice}` : ''}`,
  );
  return EXIT.failed;
}

async function showImage(ctx: CliContext, command: Command): Promise<ExitCode> {
  const id = imageId(command);
  const wait = command.opts<{ wait?: boolean }>().wait === true;
  const image = wait
    ? await follow(ctx, id)
    : await ctx.client().getImage(id, { signal: ctx.signal });
  ctx.output.result(imageDoc(image), () => imageLines(image));
  return wait ? waitedExit(ctx, image) : EXIT.ok;
}

interface EditOptions {
  prompt: string;
  brand: string;
  model?: ImageModel;
  size: ImageSize;
  ref: string[];
  wait?: boolean;
}

async function editImage(ctx: CliContext, command: Command): Promise<ExitCode> {
  const id = imageId(command);
  const options = command.opts<EditOptions>();
  const brandId = await resolveBrand(ctx, options.brand);
  return withEngine(ctx, async (engine) => {
    const refused = (error: unknown): never => {
      if (error instanceof ImageEditRefused) {
        if (error.code === 'INVALID_INPUT') throw new UsageError(error.message);
        throw new CommandFailure(error.code, error.message, error.data);
      }
      throw error;
    };
    const plan = await planImageEdit(
      engine,
      {
        imageId: id,
        brandId,
        prompt: options.prompt,
        size: options.size,
        ...(options.model ? { model: options.model } : {}),
        referenceImageIds: options.ref.map((r) => r.trim()),
      },
      ctx.signal,
    ).catch(refused);
    const balance =
      plan.credits === null
        ? 'the balance could not be checked'
        : plan.credits.unlimited
          ? `${workspaceLabel(plan.workspace)} has unlimited credits`
          : `${workspaceLabel(plan.workspace)} has ${credits(plan.credits.balance)}${plan.credits.source === 'store' ? ' (as last synced)' : ''}`;
    ctx.output.note(`This edit costs ${credits(plan.cost)} (${plan.size}); ${balance}.`);
    // The engine's use case: refused offline before anything is sent, then followed by the
    // engine; its progress is the same events the window shows.
    const edits = imageEditsOf(engine);
    const started = await edits.start(plan, ctx.signal).catch(refused);
    const cost = {
      credits: plan.cost,
      size: plan.size,
      workspaceId: plan.workspace.id,
      balanceBefore: plan.credits?.unlimited ? null : (plan.credits?.balance ?? null),
      unlimited: plan.credits?.unlimited ?? null,
    };
    if (!options.wait) {
      ctx.output.result(
        { id: started.imageId, status: started.status, sourceImageId: id, cost },
        () =>
          `Started the edit: new image ${started.imageId} (${started.status}). Follow it with: brand-sync images show ${started.imageId} --wait`,
      );
      return EXIT.ok;
    }
    ctx.output.note(`Waiting for image ${started.imageId}…`);
    const off = engine.events.on('image:updated', ({ edit }) => {
      if (edit.imageId === started.imageId && edit.finishedAt === null) {
        ctx.output.note(`  still ${edit.status}…`);
      }
    });
    const finished = await new Promise<ImageEditState | undefined>((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve(undefined), { once: true });
      void edits.finished(started.imageId).then(resolve);
    }).finally(off);
    if (finished === undefined)
      throw new CommandFailure('ABORTED', 'Stopped before the edit ended.');
    const image = await ctx.client().getImage(started.imageId, { signal: ctx.signal });
    ctx.output.result({ ...imageDoc(image), sourceImageId: id, cost }, () => imageLines(image));
    return waitedExit(ctx, image);
  });
}
