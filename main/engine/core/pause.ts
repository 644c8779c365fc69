// Pausing is the user's: kept in the store (a restart stays paused), said in the activity
// log, and followed by a running engine within seconds whichever process asked (the window,
// `brand-sync pause` in another terminal).
import { queuePausedSetting, type Store } from '../store/index.ts';

/** Records the user's pause or resume; false when it was already so (nothing written). */
export function recordPause(store: Store, paused: boolean, by: string): boolean {
  if (store.settings.read(queuePausedSetting) === paused) return false;
  store.transaction(() => {
    store.settings.write(queuePausedSetting, paused);
    store.activity.add(
      paused
        ? {
            level: 'info',
            code: 'PAUSED',
            message: `Paused by ${by}: no new work starts until resumed (running transfers finish).`,
          }
        : { level: 'info', code: 'RESUMED', message: `Resumed by ${by}.` },
    );
  });
  return true;
}

/** How often a running engine looks for a pause asked by another process. */
export const PAUSE_FOLLOW_MS = 2000;
