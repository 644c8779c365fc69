// Exports of a brand's active Skill as a ZIP: request, get. The retry of failed exports
// (failure.retryable) is in wait.ts, beside the wait it depends on.
import { seg, type Http } from './http.ts';
import { requireUuid } from './input.ts';
import { BrandExport } from './schemas.ts';
import type { CallOptions } from './brands.ts';

/** Starts or reuses an export; safe to re-send (the service reuses a running export). */
export async function requestExport(
  http: Http,
  brandId: string,
  options: CallOptions = {},
): Promise<BrandExport> {
  const endpoint = 'POST /brands/{id}/exports';
  requireUuid(brandId, 'brand ID', endpoint);
  return http.call({
    method: 'POST',
    endpoint,
    path: `/brands/${seg(brandId)}/exports`,
    schema: BrandExport,
    resend: 'resend',
    signal: options.signal,
  });
}

export async function getExport(
  http: Http,
  brandId: string,
  skillId: string,
  options: CallOptions = {},
): Promise<BrandExport> {
  const endpoint = 'GET /brands/{id}/exports/{skillId}';
  requireUuid(brandId, 'brand ID', endpoint);
  requireUuid(skillId, 'Skill ID', endpoint);
  return http.call({
    method: 'GET',
    endpoint,
    path: `/brands/${seg(brandId)}/exports/${seg(skillId)}`,
    schema: BrandExport,
    resend: 'resend',
    signal: options.signal,
  });
}

/** preparing is in progress; ready, failed and unknown values end the wait. */
export function isExportSettled(exp: Pick<BrandExport, 'status'>): boolean {
  return exp.status !== 'preparing';
}
