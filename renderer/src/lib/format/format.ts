// How the window says sizes, times and counts: short, in the user's locale, never "1 items".

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

export function bytes(size: number | null | undefined): string {
  if (size === null || size === undefined) return '—';
  if (size < 1024) return `${size} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function age(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'unknown';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${plural(days, 'day')} ago`;
  return date(iso);
}

export function date(iso: string | null | undefined): string {
  if (!iso) return '—';
  const value = new Date(iso);
  if (Number.isNaN(value.getTime())) return '—';
  return value.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const value = new Date(iso);
  if (Number.isNaN(value.getTime())) return '—';
  return value.toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A clock time today ("14:53"), with the date when it is not today. */
export function clock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const value = new Date(iso);
  if (Number.isNaN(value.getTime())) return '—';
  const sameDay = value.toDateString() === new Date().toDateString();
  const time = value.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${date(iso)} ${time}`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

export function credits(value: number | null, unlimited = false): string {
  if (unlimited) return 'Unlimited';
  if (value === null) return '—';
  return value.toLocaleString();
}

/** A brand status as a designer reads it, and the tone of its dot. */
export function brandStatus(
  status: string | null,
  deleted = false,
): {
  label: string;
  tone: 'ok' | 'warn' | 'danger' | 'neutral';
} {
  if (deleted) return { label: 'Deleted on the service', tone: 'neutral' };
  switch (status) {
    case 'ready':
      return { label: 'Ready', tone: 'ok' };
    case 'failed':
      return { label: 'Failed', tone: 'danger' };
    case 'analyzing':
    case 'pending':
    case 'processing':
    case 'queued':
      return { label: 'Analyzing', tone: 'warn' };
    case null:
      return { label: 'Not synced yet', tone: 'neutral' };
    default:
      // A status the service added after this build: said as it is, never a crash.
      return {
        label: status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' '),
        tone: 'neutral',
      };
  }
}
