// The engine's use cases, one per channel of the contract: each a few lines over the same
// engine functions the CLI commands use. Inputs arrive parsed by the contract's schema
// (bridge-dispatch.ts); answers are the contract's documents.
import path from 'node:path';
import type { ChannelName, Output, ParsedInput, SessionDoc } from '../../../contract/index.ts';
import {
  checkCreationRequest,
  creationSources,
  deleteBrand,
  runCreation,
  startBrandCreation,
  type StartedCreation,
} from '../brands/index.ts';
import { retryBrandCreation } from '../brands/retry-creation.ts';
import {
  answerEdit,
  applyEditAndBringSkill,
  discardEdit,
  editDoc,
  listEdits,
  showEdit,
} from '../edits/index.ts';
import type { Engine } from '../core/engine.ts';
import { bringSkillNow } from '../export-sync/bring-skill.ts';
import { skillKeepVersionsSetting } from '../export-sync/index.ts';
import {
  IMAGE_EDIT_COST,
  IMAGE_MODELS,
  IMAGE_SIZES,
  MAX_PROMPT,
  MAX_REFERENCES,
  findImageEdits,
  imageEditsOf,
  planImageEdit,
  quoteImageEdit,
  type ImageEditState,
} from '../images/index.ts';
import type { JobRunOutcome } from '../queue/index.ts';
import type { Brand } from '../store/index.ts';
import { activityView, jobDoc } from '../views/activity-view.ts';
import {
  appStatus,
  brandDetails,
  creditDocs,
  queueDoc,
  recentSpending,
} from '../views/app-status.ts';
import { addFileToFolder, checkDroppedFile } from '../folder-sync/add-files.ts';
import { retryFile, retryUploadJob } from '../folder-sync/retry-file.ts';
import { lookupBrand } from '../views/brand-lookup.ts';
import { filesDocument, fileDetail, fileDetailContext } from '../views/files.ts';
import { libraryItemDoc, libraryPage } from '../views/library-view.ts';
import { searchEverything } from '../views/search.ts';
import { skillFile, skillView } from '../views/skill-view.ts';
import { AppError, JobFailure } from './app-errors.ts';
import type { AppRuntime } from './app-runtime.ts';
import { settingsDoc, updateSettings, clearMediaCache } from './settings.ts';

export type Handlers = {
  [N in ChannelName]: (input: ParsedInput<N>) => Promise<Output<N>> | Output<N>;
};

export function createHandlers(app: AppRuntime): Handlers {
  const store = app.store;
  const brandOf = (arg: string): Brand => {
    const id = lookupBrand(store, arg);
    const brand = store.brands.get(id);
    if (brand === undefined)
      throw new AppError('NOT_FOUND', `No brand ${id} is known on this computer yet.`);
    return brand;
  };
  const engine = (): Engine => app.requireEngine();
  /** Forgets a brand gone from the service, with what was mirrored of it; the folder stays. */
  const forget = (brandId: string): void => {
    store.brands.remove(brandId);
    app.journal.push({ type: 'brand', brandId: null });
    app.journal.push({ type: 'edits', brandId });
    app.journal.push({ type: 'files', brandId });
  };
  /** Waits for a creation started or retried here, follows the brand it made, lists brands. */
  const settleCreation = async (e: Engine, started: StartedCreation) => {
    const outcome = await runCreation(e, started);
    const result = settledResult(outcome) as { brandId?: string } | null;
    if (result?.brandId) app.followBrand(result.brandId);
    await e.reconcile();
    return { jobId: started.job.id, mode: started.mode, brandId: result?.brandId ?? null };
  };

  return {
    session: () => sessionDoc(app),
    status: () => appStatus({ store, engine: app.engine, root: app.root }),
    credits: () => ({ credits: creditDocs(store), spent: recentSpending(store) }),
    brands: () => ({
      brands: store.brands
        .list({ includeDeleted: true })
        .map((b) => brandDetails(store, app.root, b))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }),
    brand: ({ brandId }) => brandDetails(store, app.root, brandOf(brandId)),
    library: ({ brandId, type, search, cursor, limit }) =>
      libraryPage(store, brandId === undefined ? null : lookupBrand(store, brandId), {
        type,
        search,
        cursor,
        limit,
      }),
    media: ({ itemId }) => {
      const item = store.library.get(itemId) ?? store.library.get(itemId.toLowerCase());
      if (item === undefined)
        throw new AppError('NOT_FOUND', `No Library item ${itemId} in the local mirror.`);
      return libraryItemDoc(store, item);
    },
    skill: ({ brandId }) =>
      skillView(store, app.root, brandOf(brandId), store.settings.read(skillKeepVersionsSetting)),
    skillFile: async ({ brandId, path: rel }) => {
      const file = await skillFile(store, app.root, brandOf(brandId), rel);
      if (file === null)
        throw new AppError('NOT_FOUND', `The Brand Skill on disk has no file "${rel}".`);
      return file;
    },
    files: ({ brandId, state }) => {
      if (
        state !== undefined &&
        !(
          ['waiting', 'uploading', 'uploaded', 'skipped', 'failed', 'deleted'] as string[]
        ).includes(state)
      ) {
        throw new AppError(
          'INVALID_INPUT',
          `state must be one of waiting, uploading, uploaded, skipped, failed, deleted (got "${state}").`,
        );
      }
      const doc = filesDocument(
        store,
        brandId === undefined ? undefined : lookupBrand(store, brandId),
        state as Parameters<typeof filesDocument>[2],
      );
      const context = fileDetailContext(store);
      return { ...doc, files: doc.files.map((f) => ({ ...f, detail: fileDetail(f, context) })) };
    },
    edits: async ({ brandId }) => {
      const id = lookupBrand(store, brandId);
      const listing = await listEdits(engine(), id);
      return {
        brandId: id,
        source: listing.source,
        syncedAt: listing.syncedAt === null ? null : new Date(listing.syncedAt).toISOString(),
        edits: listing.edits.map(editDoc),
      };
    },
    edit: async ({ brandId, editId }) => {
      const { edit, source } = await showEdit(
        engine(),
        lookupBrand(store, brandId),
        editId.toLowerCase(),
      );
      return { ...editDoc(edit), source };
    },
    activity: ({ limit }) => activityView(store, app.engine, limit),
    settings: () => settingsDoc(app),
    imageEdits: ({ brandId }) => {
      const edits = app.engine === null ? undefined : findImageEdits(app.engine);
      const id = brandId === undefined ? undefined : lookupBrand(store, brandId);
      return { edits: (edits?.list(id) ?? []).map(imageEditDoc) };
    },
    image: async ({ imageId }) => {
      const known =
        app.engine === null ? undefined : findImageEdits(app.engine)?.get(imageId.toLowerCase());
      if (known !== undefined) {
        const doc = imageEditDoc(known);
        return {
          id: known.imageId,
          status: known.status,
          brandId: known.brandId,
          url: null,
          failureReason: known.failureReason,
          file: doc.file,
        };
      }
      const image = await engine().client.getImage(imageId);
      const brandId = (image as { brandId?: string | null }).brandId ?? null;
      return {
        ...image,
        brandId,
        url: image.imageUrl ?? null,
        failureReason: image.failureReason ?? null,
        // The result shows from the cache (the CSP allows no remote image).
        file:
          image.status === 'completed' && image.imageUrl
            ? { area: 'media' as const, brandId: brandId ?? '', path: image.id }
            : null,
      };
    },
    search: ({ text, limit }) =>
      searchEverything(store, app.root, text, limit === undefined ? {} : { limit }),
    imageEditQuote: async ({ brandId, size }) => {
      if (!(IMAGE_SIZES as readonly string[]).includes(size)) {
        throw new AppError(
          'INVALID_INPUT',
          `size must be one of ${IMAGE_SIZES.join(', ')} (got "${size}").`,
        );
      }
      const plan = await quoteImageEdit(
        engine(),
        lookupBrand(store, brandId),
        size as (typeof IMAGE_SIZES)[number],
      );
      const balance = plan.credits?.balance ?? null;
      const unlimited = plan.credits?.unlimited ?? false;
      return {
        cost: IMAGE_EDIT_COST[plan.size],
        workspace: plan.workspace,
        balance,
        unlimited,
        enough: plan.credits === null ? null : !plan.short,
        message:
          plan.credits === null
            ? plan.workspace.known
              ? 'The balance could not be checked: the service decides when the edit is sent.'
              : "The brand's record does not name its workspace, so its balance cannot be checked: the service decides when the edit is sent."
            : unlimited
              ? 'This workspace has unlimited credits.'
              : plan.short
                ? `This edit costs ${plan.cost} and the workspace has ${balance}.`
                : `This edit costs ${plan.cost}; ${balance} available.`,
        limits: {
          maxPrompt: MAX_PROMPT,
          maxReferences: MAX_REFERENCES,
          models: [...IMAGE_MODELS],
          sizes: [...IMAGE_SIZES],
        },
      };
    },

    signIn: async ({ key, kind, baseUrl }) => {
      await app.signIn(key, kind, baseUrl);
      return sessionDoc(app);
    },
    signOut: async () => {
      await app.signOut();
      return sessionDoc(app);
    },
    pause: () => {
      const e = engine();
      e.pause('you');
      return queueDoc(store, e);
    },
    resume: () => {
      const e = engine();
      e.resume('you');
      return queueDoc(store, e);
    },
    syncNow: async () => {
      await engine().requestSync();
      return { queued: true };
    },
    createBrand: async (input) => {
      const e = engine();
      const request = await checkCreationRequest({
        sources: creationSources({
          website: input.website || undefined,
          pdfs: input.pdfs,
          instagram: input.instagram || undefined,
        }),
        ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
        ...(input.allowDuplicate ? { allowDuplicate: true } : {}),
        ...(input.workspaceId !== undefined ? { workspaceId: input.workspaceId } : {}),
      });
      return settleCreation(e, startBrandCreation(e, request));
    },
    retryBrand: async ({ brandId }) => {
      const e = engine();
      return settleCreation(e, retryBrandCreation(e, lookupBrand(store, brandId)));
    },
    deleteBrand: async ({ brandId }) => {
      const e = engine();
      const deleted = await deleteBrand(e, lookupBrand(store, brandId));
      // Deleted from here: it leaves the lists at once (its folder stays on disk).
      forget(deleted.id);
      return {
        id: deleted.id,
        name: deleted.name,
        folderKept: deleted.folderName === null ? null : path.join(app.root, deleted.folderName),
      };
    },
    applyEdit: async ({ brandId, editId }) => {
      const applied = await applyEditAndBringSkill(
        engine(),
        lookupBrand(store, brandId),
        editId.toLowerCase(),
      );
      // Stale: the brand's current Skill is on disk already; the refusal is the answer.
      if (applied.stale !== null) throw applied.stale;
      const { ran: _ran, ...skill } = applied.skill;
      return { edit: editDoc(applied.edit), skill };
    },
    discardEdit: async ({ brandId, editId }) => {
      const edit = await discardEdit(engine(), lookupBrand(store, brandId), editId.toLowerCase());
      return { edit: editDoc(edit) };
    },
    answerEdit: async (input) => {
      const e = engine();
      const id = lookupBrand(store, input.brandId);
      const edit = await answerEdit(e, id, input.editId.toLowerCase(), {
        interactionId: input.interactionId.toLowerCase(),
        ...(input.text !== undefined ? { text: input.text } : {}),
        ...(input.imageIds !== undefined ? { imageIds: input.imageIds } : {}),
        ...(input.sources !== undefined ? { sources: input.sources } : {}),
      });
      return { edit: editDoc(edit) };
    },
    imageEdit: async (input) => {
      const e = engine();
      const plan = await planImageEdit(e, {
        imageId: input.imageId,
        brandId: lookupBrand(store, input.brandId),
        prompt: input.prompt,
        ...(input.model !== undefined
          ? { model: input.model as (typeof IMAGE_MODELS)[number] }
          : {}),
        ...(input.size !== undefined ? { size: input.size as (typeof IMAGE_SIZES)[number] } : {}),
        ...(input.referenceIds !== undefined ? { referenceImageIds: input.referenceIds } : {}),
      });
      return imageEditDoc(await imageEditsOf(e).start(plan));
    },
    retryJob: async ({ jobId }) => {
      const e = engine();
      const failed = store.jobs.get(jobId);
      if (failed !== undefined && (await retryUploadJob(e, failed))) {
        return jobDoc(e, store.jobs.get(jobId) ?? failed);
      }
      const job = e.queue.retry(jobId);
      if (job === undefined)
        throw new AppError(
          'NOT_FOUND',
          `Job ${jobId} cannot be retried (unknown, or neither failed nor cancelled).`,
        );
      return jobDoc(e, job);
    },
    retryFile: async ({ brandId, path: relPath }) => {
      const e = engine();
      const id = lookupBrand(store, brandId);
      await retryFile(e, id, relPath);
      return { path: relPath, state: store.files.getByPath(id, relPath)?.state ?? 'waiting' };
    },
    cancelJob: ({ jobId }) => {
      const e = engine();
      const job = e.queue.cancel(jobId);
      if (job === undefined)
        throw new AppError(
          'NOT_FOUND',
          `Job ${jobId} cannot be cancelled (unknown, or already finished).`,
        );
      return jobDoc(e, job);
    },
    syncSkill: async ({ brandId }) => {
      const { ran: _ran, ...delivered } = await bringSkillNow(
        engine(),
        lookupBrand(store, brandId),
        'user',
      );
      return delivered;
    },
    updateSettings: (change) => updateSettings(app, change),
    clearMediaCache: () => clearMediaCache(app),
    addFiles: async ({ brandId, files }) => {
      const dir = brandFolder(app.root, brandOf(brandId));
      const added: { name: string; path: string }[] = [];
      const decoded = files.map((f) => ({
        name: f.name,
        bytes: Buffer.from(f.dataBase64, 'base64'),
      }));
      // Every file is judged before any is written: a refused one copies nothing of the batch.
      for (const file of decoded) await checkDroppedFile(file.name, file.bytes);
      for (const file of decoded) {
        const name = await addFileToFolder(dir, file.name, file.bytes);
        added.push({ name, path: name });
      }
      return { added };
    },
    forgetBrand: ({ brandId }) => {
      const brand = brandOf(brandId);
      if (!brand.deletedRemotely) {
        throw new AppError(
          'BRAND_STILL_ON_SERVICE',
          `${brand.name ?? brand.id} still exists on the service: delete it there (or from Brand Sync) first.`,
        );
      }
      forget(brand.id);
      return {
        id: brand.id,
        folderKept: brand.folderName === null ? null : path.join(app.root, brand.folderName),
      };
    },
    openFolder: async ({ brandId }) => {
      const target = brandId === undefined ? app.root : brandFolder(app.root, brandOf(brandId));
      if (app.host.openPath === undefined) return { path: target, opened: false };
      return { path: target, opened: await app.host.openPath(target) };
    },
  };
}

function imageEditDoc(edit: ImageEditState) {
  const finished = edit.status === 'completed' || edit.status === 'failed';
  return {
    imageId: edit.imageId,
    brandId: edit.brandId,
    sourceImageId: edit.sourceImageId,
    prompt: edit.prompt,
    size: edit.size,
    cost: edit.cost,
    status: edit.status,
    finished,
    failureReason: edit.failureReason,
    advice: edit.advice,
    startedAt: new Date(edit.startedAt).toISOString(),
    finishedAt: edit.finishedAt === null ? null : new Date(edit.finishedAt).toISOString(),
    // The result shows from the cache (the CSP allows no remote image).
    file:
      edit.status === 'completed'
        ? { area: 'media' as const, brandId: edit.brandId, path: edit.imageId }
        : null,
  };
}

function brandFolder(root: string, brand: Brand): string {
  if (brand.folderName === null) {
    throw new AppError(
      'NOT_FOUND',
      `${brand.name ?? brand.id} has no folder on this computer yet.`,
    );
  }
  return path.join(root, brand.folderName);
}

export function sessionDoc(app: AppRuntime): SessionDoc {
  const session = app.session;
  const account = app.engine?.queue.status().conditions.find((c) => c.name === 'account');
  return {
    signedIn: app.engine !== null,
    authKind: session.credentials?.kind ?? null,
    source: session.source,
    baseUrl: app.baseUrl,
    demo: app.demo,
    problem: account
      ? {
          code: account.code,
          message: account.message,
          since: new Date(account.since).toISOString(),
        }
      : null,
    keychain: { available: session.keychainProblem === null, message: session.keychainProblem },
  };
}

/** The job's result, or its failure as an error the bridge can carry. */
function settledResult(outcome: JobRunOutcome): unknown {
  if (outcome.state === 'done') return outcome.job.result;
  if (outcome.state === 'failed') {
    throw new JobFailure(outcome.error.code, outcome.error.message, {
      retryable: outcome.error.retryable,
      data: outcome.error.data,
    });
  }
  if (outcome.state === 'halted') {
    throw new JobFailure(outcome.code, outcome.message, { retryable: true });
  }
  throw new JobFailure('CANCELLED', 'The job was cancelled.');
}
