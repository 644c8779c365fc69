// The image edit as an engine use case: priced and checked (image-edit.ts), refused offline
// before anything is sent, started once, then followed by the engine with the service's long
// poll until it completes or fails, whoever is watching (the window's dialog may be closed,
// `images edit` may not wait). Each state it passes through is an `image:updated` event; a
// completed edit asks for its brand's Library to be refreshed (the result is an item there),
// and both ends are written to Activity with their cost. The spend changes the stored balance
// at once (`credits:changed`); the end asks the service for the real one (a failed edit is
// refunded).
import { refreshAccountKind } from '../account/account-refresh.ts';
import type { Image } from '../api/index.ts';
import type { Engine, EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import { Follower, queueConnection } from '../follow/follower.ts';
import { brandDisplayName } from '../store/index.ts';
import { credits, ImageEditRefused, startImageEdit, type ImageEditPlan } from './image-edit.ts';
import {
  imageEditsSetting,
  isImageFinished,
  KEEP_FINISHED,
  type ImageEditState,
} from './image-edit-state.ts';
import { imageFailureAdvice } from './image-status.ts';

export const IMAGE_EDITS_FEATURE = 'imageEdits';
export const IMAGE_EDIT_DONE = 'IMAGE_EDIT_DONE';
export const IMAGE_EDIT_FAILED = 'IMAGE_EDIT_FAILED';

export interface ImageEdits {
  /**
   * Starts the edit the plan priced and follows it. Refused (nothing sent) when the service
   * cannot be reached now or the known balance is short.
   */
  start(plan: ImageEditPlan, signal?: AbortSignal): Promise<ImageEditState>;
  /** The edit as last known; undefined for an image this engine did not start. */
  get(imageId: string): ImageEditState | undefined;
  /** The known edits, newest first (of one brand when given). */
  list(brandId?: string): ImageEditState[];
  /** Resolves when the edit ends (at once for a finished one); undefined when not followed. */
  finished(imageId: string): Promise<ImageEditState | undefined>;
}

export const imageEditsFeature: FeatureFactory = (parts) => createImageEdits(parts);

/** The engine's image edits (every engine built with the default features has them). */
export function imageEditsOf(engine: Engine): ImageEdits {
  const edits = findImageEdits(engine);
  if (edits === undefined) throw new Error('This engine has no image edits.');
  return edits;
}

/** The engine's image edits, or undefined when it was built without them. */
export function findImageEdits(engine: Engine): ImageEdits | undefined {
  const feature = engine.features.find((f) => f.name === IMAGE_EDITS_FEATURE) as
    (EngineFeature & { edits?: ImageEdits }) | undefined;
  return feature?.edits;
}

function createImageEdits(parts: EngineParts): EngineFeature & { edits: ImageEdits } {
  const { store, client, events, queue } = parts;
  const follower = new Follower({ connection: queueConnection(queue) });
  const waiters = new Map<string, ((state: ImageEditState) => void)[]>();

  const read = (): ImageEditState[] => store.settings.read(imageEditsSetting);
  const save = (state: ImageEditState): ImageEditState => {
    const others = read().filter((e) => e.imageId !== state.imageId);
    const all = [state, ...others].sort((a, b) => b.startedAt - a.startedAt);
    let finishedKept = 0;
    const kept = all.filter((e) => !isImageFinished(e.status) || finishedKept++ < KEEP_FINISHED);
    store.settings.write(imageEditsSetting, kept);
    return state;
  };

  const finishedWith = (state: ImageEditState): void => {
    const brand = store.brands.get(state.brandId);
    const name = brand ? brandDisplayName(brand) : 'the brand';
    if (state.status === 'completed') {
      store.activity.add({
        level: 'info',
        code: IMAGE_EDIT_DONE,
        message: `Image edit finished: the new image is in ${name}'s Library (${credits(state.cost)}, ${state.size}).`,
        brandId: state.brandId,
        data: { imageId: state.imageId, sourceImageId: state.sourceImageId, cost: state.cost },
      });
      events.emit('library:refresh-wanted', { brandId: state.brandId });
    } else {
      store.activity.add({
        level: 'warn',
        code: IMAGE_EDIT_FAILED,
        message: `Image edit failed${state.failureReason ? ` (${state.failureReason.replaceAll('_', ' ')})` : ''}; the service does not charge a failed edit.${state.advice ? ` ${state.advice}` : ''}`,
        brandId: state.brandId,
        data: { imageId: state.imageId, sourceImageId: state.sourceImageId, cost: 0 },
      });
    }
    // The balance as the service has it now (a failed edit was refunded).
    queue.enqueue(refreshAccountKind, {}, { key: refreshAccountKind, priority: 10 });
    for (const resolve of waiters.get(state.imageId) ?? []) resolve(state);
    waiters.delete(state.imageId);
  };

  const follow = (initial: ImageEditState): void => {
    void follower.follow<Image>({
      key: `image:${initial.imageId}`,
      longPoll: true,
      look: ({ wait, signal }) => client.getImage(initial.imageId, { wait, signal }),
      settled: (image) => isImageFinished(image.status),
      stateOf: (image) => image.status,
      changed: (image) => {
        const current = read().find((e) => e.imageId === initial.imageId) ?? initial;
        if (current.status === image.status && !isImageFinished(image.status)) return;
        const finished = isImageFinished(image.status);
        const next = save({
          ...current,
          status: image.status,
          failureReason: image.failureReason ?? null,
          advice: imageFailureAdvice(image),
          finishedAt: finished ? parts.now() : null,
        });
        events.emit('image:updated', { edit: next });
        if (finished) finishedWith(next);
      },
      gone: (code) => {
        const current = read().find((e) => e.imageId === initial.imageId) ?? initial;
        const next = save({
          ...current,
          status: 'failed',
          failureReason: code === 'IMAGE_NOT_FOUND' ? 'not_found' : code.toLowerCase(),
          advice: null,
          finishedAt: parts.now(),
        });
        events.emit('image:updated', { edit: next });
        finishedWith(next);
      },
    });
  };

  const edits: ImageEdits = {
    async start(plan, signal) {
      const offline = queue.status().conditions.find((c) => c.name === 'offline');
      if (offline !== undefined || plan.credits?.source === 'store') {
        throw new ImageEditRefused(
          'OFFLINE',
          'The service cannot be reached, so the edit was not sent and nothing was charged. Try again when Brand Sync is back online.',
        );
      }
      const started = await startImageEdit({ store, client }, plan, signal);
      if (plan.credits !== null && !plan.credits.unlimited) {
        events.emit('credits:changed', { workspaceId: plan.workspace.id });
      }
      const state = save({
        imageId: started.id,
        brandId: plan.request.brandId,
        sourceImageId: plan.request.imageId,
        prompt: plan.request.prompt,
        size: plan.size,
        cost: plan.cost,
        workspaceId: plan.workspace.id,
        status: started.status ?? 'pending',
        failureReason: null,
        advice: null,
        startedAt: parts.now(),
        finishedAt: null,
      });
      events.emit('image:updated', { edit: state });
      follow(state);
      return state;
    },
    get: (imageId) => read().find((e) => e.imageId === imageId.toLowerCase()),
    list: (brandId) =>
      read().filter((e) => brandId === undefined || e.brandId === brandId.toLowerCase()),
    finished(imageId) {
      const known = edits.get(imageId);
      if (known === undefined) return Promise.resolve(undefined);
      if (isImageFinished(known.status)) return Promise.resolve(known);
      if (!follower.has(`image:${known.imageId}`)) follow(known);
      return new Promise((resolve) => {
        const list = waiters.get(known.imageId) ?? [];
        list.push(resolve);
        waiters.set(known.imageId, list);
      });
    },
  };

  return {
    name: IMAGE_EDITS_FEATURE,
    edits,
    start() {
      for (const edit of read()) if (!isImageFinished(edit.status)) follow(edit);
    },
    stop() {
      follower.stop();
      for (const [, list] of waiters) for (const resolve of list) resolve(undefined as never);
      waiters.clear();
    },
  };
}
