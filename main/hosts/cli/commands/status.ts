// `status [--json]`: what the engine knows, read from the local store only, so it answers
// with the service unreachable and without a key: brands with status and freshness, queue
// counts, what waits and why, file counts, credits, the last errors.
import { count } from '../../../engine/core/plural.ts';
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { fields, table } from '../output.ts';
import { openStore } from '../../../engine/store/index.ts';
import { statusDocument, type StatusDocument } from '../../../engine/views/status.ts';
import { ago } from '../time-format.ts';

export function registerStatus(program: Command, deps: CliDeps): void {
  program
    .command('status')
    .description('brands with their status, queue and file counts, credits and the last errors')
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx) => {
        const store = openStore({ dataDir: ctx.config.dataDir });
        try {
          const doc = statusDocument(store);
          ctx.output.result(doc, () => describeStatus(doc, store.now()));
        } finally {
          store.close();
        }
      }),
    );
}

function describeStatus(doc: StatusDocument, now: number): string[] {
  const lines: string[] = [];
  if (doc.brands.length === 0) {
    lines.push('No brands known yet: run `brand-sync sync --once` first.');
  } else {
    lines.push(`Brands (listed ${ago(doc.brandsSyncedAt, now)}):`);
    lines.push(
      ...table(
        ['NAME', 'STATUS', 'FOLDER', 'LIBRARY', 'FILES'],
        doc.brands.map((b) => [
          b.name,
          b.deletedRemotely ? 'deleted on the service' : (b.status ?? 'unknown'),
          b.folder ?? '-',
          `${count(b.library.items, 'item')}, ${ago(b.library.lastRefreshAt, now)}`,
          countLine(b.files) || '-',
        ]),
      ).map((l) => `  ${l}`),
    );
  }
  for (const b of doc.brands) {
    if (b.status === 'failed' && !b.deletedRemotely) {
      const why = b.failure?.message ? ` (${b.failure.message.replace(/\.+$/, '')})` : '';
      lines.push(
        `${b.name} failed: ${b.failure?.code ?? 'no reason given'}${why}. ${b.failure?.advice ?? ''}`.trimEnd(),
      );
    }
  }
  lines.push(
    ...fields([
      [
        'Queue',
        `${countLine(doc.queue.jobs) || 'empty'}${doc.queue.paused ? ' (paused by you)' : ''}`,
      ],
      ['Files', countLine(doc.files) || 'none indexed'],
      [
        'Credits',
        doc.credits
          .map(
            (c) =>
              `${c.name ?? c.workspaceId}: ${c.unlimited ? 'unlimited' : c.balance} (${ago(c.syncedAt, now)})`,
          )
          .join('; ') || 'unknown',
      ],
    ]),
  );
  if (doc.waiting.length > 0) {
    lines.push('Waiting to retry:');
    for (const w of doc.waiting) {
      lines.push(
        `  ${w.subject}: ${w.reason ? `${w.reason.code}: ${w.reason.message}` : 'no reason recorded'} (${nextTry(w.nextRunAt, now)})`,
      );
    }
  }
  if (doc.lastErrors.length > 0) {
    lines.push('Last errors:');
    for (const e of doc.lastErrors) lines.push(`  ${ago(e.at, now)}: ${e.code}: ${e.message}`);
  }
  return lines;
}

function nextTry(at: string | null, now: number): string {
  return at === null || Date.parse(at) <= now ? 'due at the next sync' : `next try ${ago(at, now)}`;
}

/** "3 uploaded, 1 failed": the non-zero counts. */
function countLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
}
