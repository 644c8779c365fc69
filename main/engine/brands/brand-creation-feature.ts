// Brand creation as an engine feature: it registers the durable creation job (so a creation
// a crash interrupted resumes with the next run of the queue) and names its jobs in reports.
import type { EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import {
  createBrandKind,
  registerCreateBrand,
  type BrandCreationResult,
  type CreateBrandPayload,
} from './create-brand-job.ts';
import { requestLabel } from './creation-request.ts';

export const brandCreationFeature: FeatureFactory = (parts) => createFeature(parts);

function createFeature(parts: EngineParts): EngineFeature {
  registerCreateBrand(parts);
  const created: { at: number; result: BrandCreationResult }[] = [];
  const off = parts.queue.events.on('job:done', ({ job }) => {
    if (job.kind === createBrandKind && job.result) {
      created.push({ at: parts.now(), result: job.result as BrandCreationResult });
    }
  });
  return {
    name: 'brandCreation',
    stop() {
      off();
    },
    describe(job) {
      if (job.kind !== createBrandKind) return undefined;
      const payload = job.payload as Partial<CreateBrandPayload>;
      return {
        area: 'brand creation',
        subject: payload.request ? requestLabel(payload.request) : (job.key ?? `#${job.id}`),
      };
    },
    announce(job, feed) {
      if (job.kind !== createBrandKind || job.state !== 'done') return;
      const id = (job.result as { brandId?: string } | null)?.brandId ?? job.brandId;
      const brand = id ? parts.store.brands.get(id) : undefined;
      if (brand !== undefined) feed.brandSeen(brand, { createdHere: true });
      feed.push({ type: 'brand', brandId: id ?? null });
    },
    report(since) {
      const recent = created.filter((c) => c.at >= since).map((c) => c.result);
      if (recent.length === 0) return { summary: [], created: [] };
      return {
        summary: recent.map((r) =>
          r.failure
            ? `Brand creation from ${r.label} ended failed: ${r.failure.code}. ${r.failure.advice}`
            : `Created brand ${r.brandId} from ${r.label} (${r.status}).`,
        ),
        created: recent.map((r) => ({ brandId: r.brandId, status: r.status, label: r.label })),
      };
    },
  };
}
