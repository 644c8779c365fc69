// The queue's actions: check the service now, pause or resume, retry or cancel a job.
import type { JobDoc } from '../../../../contract/index.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import { attempt } from './attempt.ts';

export async function syncNow(app: AppState): Promise<void> {
  const result = await attempt(app, app.bridge.call('syncNow', {}), 'Could not sync now');
  if (result.ok) app.toasts.show('info', 'Checking the service for changes');
}

/** Pauses syncing, or resumes it when paused by the user; the queue's state is asked again. */
export async function togglePause(app: AppState, paused: boolean): Promise<void> {
  const call = app.bridge.call(paused ? 'resume' : 'pause', {});
  await attempt(app, call, 'Could not change the queue');
  void app.status.refresh();
  void app.activity.refresh();
}

/** Resumes a queue paused by the user; the banner follows the status asked again. */
export async function resume(app: AppState): Promise<void> {
  await app.bridge.call('resume', {});
  void app.status.refresh();
}

export async function jobAction(
  app: AppState,
  job: JobDoc,
  what: 'retryJob' | 'cancelJob',
): Promise<void> {
  const failed = what === 'retryJob' ? 'Could not retry' : 'Could not cancel';
  await attempt(app, app.bridge.call(what, { jobId: job.id }), failed);
  void app.activity.refresh();
}
