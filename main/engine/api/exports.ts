// Exports of a brand's active Skill as a ZIP: request, get. The retry of failed exports
// (failure.retryable) is in wait.ts, beside the wait it depends on.
import { byId, byIds } from './endpoint.ts';
import { BrandExport } from './schemas.ts';

/** Starts or reuses an export; safe to re-send (the service reuses a running export). */
export const requestExport = byId(
  'POST /brands/{id}/exports',
  'brand ID',
  BrandExport,
  (id) => `/brands/${id}/exports`,
);

export const getExport = byIds(
  'GET /brands/{id}/exports/{skillId}',
  ['brand ID', 'Skill ID'],
  BrandExport,
  (brandId, skillId) => `/brands/${brandId}/exports/${skillId}`,
);

/** preparing is in progress; ready, failed and unknown values end the wait. */
export function isExportSettled(exp: Pick<BrandExport, 'status'>): boolean {
  return exp.status !== 'preparing';
}
