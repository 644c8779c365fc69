// `videos show ID [--json]`: a video's record (Library items of type video; the service
// only stores videos).
import type { Command } from 'commander';
import { isUuid, type MediaFile } from '../../../engine/api/index.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { fields, UsageError } from '../output.ts';

export function registerVideos(program: Command, deps: CliDeps): void {
  program
    .command('videos')
    .description('videos of the brands’ Libraries')
    .command('show')
    .description('show a video')
    .argument('<id>', 'the video ID')
    .option('--json', 'print one JSON document')
    .action(action(deps, showVideo));
}

/** The stable JSON shape of a video: the same keys every time, null when unknown. */
export function videoDoc(video: MediaFile): Record<string, unknown> {
  return {
    id: video.id,
    type: video.type,
    source: video.source,
    brandId: video.brandSessionId,
    workspaceId: video.workspaceId,
    mimeType: video.mimeType,
    url: video.url,
    fileSize: video.fileSize,
    durationMs: video.durationMs ?? null,
    width: video.width ?? null,
    height: video.height ?? null,
    description: video.description ?? null,
    inLibrary: video.inLibrary,
    addedToLibraryAt: video.addedToLibraryAt ?? null,
    generationId: video.generationId ?? null,
    createdAt: video.createdAt,
  };
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]} (${n} bytes)`;
}

function duration(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

async function showVideo(ctx: CliContext, command: Command): Promise<void> {
  const id = (command.processedArgs[0] as string).trim();
  if (!isUuid(id)) throw new UsageError(`"${id}" is not a video ID (a UUID).`);
  const video = await ctx.client().getVideo(id.toLowerCase(), { signal: ctx.signal });
  ctx.output.result(videoDoc(video), () =>
    fields([
      ['ID', video.id],
      ['Type', video.type],
      ['Source', video.source],
      ['Brand', video.brandSessionId],
      ['Workspace', video.workspaceId ?? 'personal'],
      ['MIME type', video.mimeType],
      ['File size', bytes(video.fileSize)],
      ['Duration', duration(video.durationMs)],
      ['Size', video.width && video.height ? `${video.width}×${video.height}` : null],
      ['Description', video.description],
      [
        'In Library',
        video.inLibrary
          ? `yes${video.addedToLibraryAt ? `, since ${video.addedToLibraryAt}` : ''}`
          : 'no',
      ],
      ['URL', video.url],
      ['Created', video.createdAt],
    ]),
  );
}
