// A file's sync state as the Files tab shows it: its word, its glyph, and the order of the
// filters (what needs the person first).
import { CircleAlert, CircleCheck, Clock, EyeOff, LoaderCircle } from '@lucide/svelte';

export const STATE_ORDER: string[] = ['failed', 'uploading', 'waiting', 'skipped', 'uploaded'];

const LABELS: Record<string, string> = {
  uploaded: 'Uploaded',
  waiting: 'Waiting',
  uploading: 'Uploading',
  skipped: 'Ignored',
  failed: 'Failed',
};

const ICONS = {
  uploaded: CircleCheck,
  waiting: Clock,
  uploading: LoaderCircle,
  skipped: EyeOff,
  failed: CircleAlert,
};

export const stateLabel = (state: string): string => LABELS[state] ?? state;

/** A state this window does not know yet shows as waiting. */
export const stateIcon = (state: string): typeof Clock =>
  ICONS[state as keyof typeof ICONS] ?? Clock;
