// The tray at a glance, from the same status document the window shows: in sync, syncing N,
// paused, offline, or needs you (an account problem, failures). Pure, so each state is tested.
import type { StatusDoc } from '../../../contract/index.ts';

export const TRAY_KINDS = [
  'in-sync',
  'syncing',
  'paused',
  'offline',
  'needs-you',
  'signed-out',
] as const;
export type TrayKind = (typeof TRAY_KINDS)[number];

/**
 * The tray image of a state, below the built renderer (bin/make-icons.ts draws them; Electron
 * takes the `@2x` file beside it on high-density screens).
 */
export function trayIconPath(kind: TrayKind): string {
  return `tray/${kind}.png`;
}

/** Where the shell keeps the tray state it shows, for the end-to-end test (a global symbol). */
export const TRAY_SHOWN = Symbol.for('brand-sync.tray-shown');

export interface TrayState {
  kind: TrayKind;
  /** The tooltip and the first, disabled line of the menu. */
  label: string;
}

export function trayState(status: StatusDoc | null, signedIn: boolean): TrayState {
  if (!signedIn || status === null)
    return { kind: 'signed-out', label: 'Brand Sync: not signed in' };
  const account = status.queue.conditions.find((c) => c.name === 'account');
  if (account) return { kind: 'needs-you', label: `Brand Sync needs you: ${account.message}` };
  if (status.queue.userPaused) return { kind: 'paused', label: 'Brand Sync: paused' };
  if (status.connection.online === false) return { kind: 'offline', label: 'Brand Sync: offline' };
  const failed = status.queue.counts['failed'] ?? 0;
  const working =
    status.queue.running +
    (status.queue.counts['queued'] ?? 0) +
    (status.queue.counts['retry-wait'] ?? 0);
  if (working > 0)
    return {
      kind: 'syncing',
      label: `Brand Sync: syncing ${working} ${working === 1 ? 'item' : 'items'}`,
    };
  if (failed > 0)
    return {
      kind: 'needs-you',
      label: `Brand Sync: ${failed} ${failed === 1 ? 'item' : 'items'} failed`,
    };
  return { kind: 'in-sync', label: 'Brand Sync: up to date' };
}

export type TrayAction = 'open' | 'pause' | 'resume' | 'sync-now' | 'open-root' | 'quit';

export interface TrayMenuItem {
  label: string;
  action?: TrayAction;
  enabled: boolean;
  separator?: true;
}

export function trayMenu(state: TrayState, paused: boolean): TrayMenuItem[] {
  const signedIn = state.kind !== 'signed-out';
  return [
    { label: state.label, enabled: false },
    { label: '', enabled: false, separator: true },
    { label: 'Open Brand Sync', action: 'open', enabled: true },
    paused
      ? { label: 'Resume syncing', action: 'resume', enabled: signedIn }
      : { label: 'Pause syncing', action: 'pause', enabled: signedIn },
    { label: 'Sync now', action: 'sync-now', enabled: signedIn && !paused },
    { label: 'Open the sync folder', action: 'open-root', enabled: true },
    { label: '', enabled: false, separator: true },
    { label: 'Quit Brand Sync', action: 'quit', enabled: true },
  ];
}
