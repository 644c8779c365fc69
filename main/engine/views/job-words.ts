// A job as a person names it, from the store alone (so `status` can say it with the engine
// stopped): "upload Acme/logo.png", "Brand Skill of Acme", never "export.sync export.sync:6d01…".
import { brandDisplayName } from '../store/index.ts';
import type { JobRecord, Store } from '../store/index.ts';

const AREAS: Record<string, string> = {
  'folder-upload': 'upload',
  'folder-logo': 'logo of',
  'folder-scan': 'folder',
  'library.sync': 'Library of',
  'export.sync': 'Brand Skill of',
  'brand-skill.sync': 'beta Brand Skill',
  'edits.refresh': 'Brand Edits of',
  'refresh-account': 'credits and workspaces',
  'refresh-brands': 'the list of brands',
  'brand.create': 'creating a brand',
};

export function jobWords(
  store: Store,
  job: Pick<JobRecord, 'kind' | 'brandId' | 'payload'>,
): string {
  const brand = job.brandId === null ? undefined : store.brands.get(job.brandId);
  const brandName = brand === undefined ? job.brandId : brandDisplayName(brand);
  if (job.kind === 'folder-upload') {
    const fileId = (job.payload as { fileId?: unknown } | null)?.fileId;
    const row = typeof fileId === 'number' ? store.files.get(fileId) : undefined;
    const folder = brand?.folderName ?? brandName ?? '';
    return row === undefined
      ? `upload to ${brandName ?? 'a brand'}`
      : `upload ${folder}/${row.relPath}`;
  }
  const area = AREAS[job.kind];
  if (area === undefined) return job.kind.replace(/[._-]+/g, ' ');
  return area.endsWith(' of') || area === 'folder' ? `${area} ${brandName ?? 'a brand'}` : area;
}
