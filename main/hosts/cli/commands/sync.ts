// `sync --once [--json]`: one full reconcile, waiting until the queue settles. Exit 0 when
// all was done, 1 when something failed (each failure listed with its reason).
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { withEngine } from '../engine.ts';
import { EXIT, UsageError } from '../output.ts';
import type { SyncReport } from '../../../engine/core/sync-pass.ts';

export function registerSync(program: Command, deps: CliDeps): void {
  program
    .command('sync')
    .description(
      'one full reconcile: scan folders, upload, refresh brands, Library and credits, sync Brand Skills',
    )
    .option(
      '--once',
      'run one pass and exit when the queue settles (required; `run` keeps syncing)',
    )
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx, command) => {
        if (command.opts<{ once?: boolean }>().once !== true) {
          throw new UsageError('sync needs --once (to keep syncing, use `brand-sync run`).');
        }
        // Unreachable is said within seconds: a condition the queue raised after its own
        // retries is not waited out for long by a one-shot command.
        const report = await withEngine(ctx, (engine) =>
          engine.syncOnce({ signal: ctx.signal, offlineGraceMs: OFFLINE_GRACE_MS }),
        );
        ctx.output.result(report, () => describeReport(report));
        return report.ok ? EXIT.ok : EXIT.failed;
      }),
    );
}

const OFFLINE_GRACE_MS = 1000;

/** "Brand Skill of Trunc Co", "file Acme/a.png": what failed, in words. */
function subjectLine(failure: SyncReport['failures'][number]): string {
  const of = OF_AREAS.has(failure.area) ? ' of' : '';
  return `${failure.area}${of} ${failure.subject}`;
}
/** Areas that are something of a brand (the subject is the brand's name). */
const OF_AREAS = new Set(['Brand Skill']);

function describeReport(report: SyncReport): string[] {
  const seconds = (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000;
  const lines: string[] = [];
  // Why it stopped comes first; a section that did nothing says nothing then.
  if (report.halted) lines.push(`Stopped: ${report.halted.code}: ${report.halted.message}`);
  for (const section of Object.values(report.sections)) {
    const summary = report.halted
      ? section.summary.filter((l) => !/nothing to do\.?$/.test(l))
      : section.summary;
    lines.push(...summary);
  }
  for (const failure of report.failures) {
    lines.push(`Failed: ${subjectLine(failure)}: ${failure.message} (${failure.code})`);
  }
  const n = report.failures.length;
  const failures = `${n} failure${n === 1 ? '' : 's'}`;
  lines.push(
    report.halted
      ? `Sync stopped after ${seconds.toFixed(1)} s${n > 0 ? ` with ${failures}` : ''}; the rest waits in the queue for the next sync.`
      : report.ok
        ? `Sync complete in ${seconds.toFixed(1)} s (${report.jobs.done} steps).`
        : `Sync finished with ${failures} in ${seconds.toFixed(1)} s.`,
  );
  return lines;
}
