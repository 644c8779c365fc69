// Creating a brand now, as both faces ask it: the sources in the order the service reads
// them, then the creation's durable job run at once (a creation under way is resumed by
// startBrandCreation, never made twice). The faces only parse and word the outcome.
import type { Engine } from '../core/engine.ts';
import { runJobNow, type JobRunOutcome } from '../queue/index.ts';
import { createBrandKind } from './create-brand-job.ts';
import type { SourceSpec } from './creation-request.ts';
import type { StartedCreation } from './start-creation.ts';

export interface CreationSources {
  website?: string | undefined;
  pdfs?: readonly string[] | undefined;
  instagram?: string | undefined;
}

/**
 * The sources in the order the service reads them: the website, the PDFs, then Instagram.
 * A PDF given with a scheme is fetched from its URL, else read from this computer.
 */
export function creationSources(input: CreationSources): SourceSpec[] {
  const sources: SourceSpec[] = [];
  if (input.website !== undefined) sources.push({ kind: 'website', url: input.website });
  for (const pdf of input.pdfs ?? []) {
    sources.push(
      /^[a-z][a-z0-9+.-]*:\/\//i.test(pdf) ? { kind: 'pdf', url: pdf } : { kind: 'pdf', path: pdf },
    );
  }
  if (input.instagram !== undefined) sources.push({ kind: 'instagram', url: input.instagram });
  return sources;
}

/** Runs a started (or retried) creation's job now and waits for its end. */
export function runCreation(
  engine: Engine,
  started: StartedCreation,
  signal?: AbortSignal,
): Promise<JobRunOutcome> {
  return runJobNow(
    engine.queue,
    createBrandKind,
    started.payload,
    started.enqueue,
    signal ? { signal } : {},
  );
}
