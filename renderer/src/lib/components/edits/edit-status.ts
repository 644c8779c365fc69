// A Brand Edit's status as a person reads it; a status the service adds later is shown as is.
export function editStatus(status: string): {
  label: string;
  tone: 'ok' | 'warn' | 'danger' | 'accent' | '';
  pending: boolean;
} {
  switch (status) {
    case 'awaiting_approval':
      return { label: 'Waiting for you', tone: 'accent', pending: true };
    case 'input_required':
      return { label: 'Has a question', tone: 'warn', pending: true };
    case 'preparing':
    case 'queued':
    case 'running':
      return { label: 'Being prepared', tone: '', pending: false };
    case 'applied':
      return { label: 'Applied', tone: 'ok', pending: false };
    case 'discarded':
      return { label: 'Discarded', tone: '', pending: false };
    case 'stale':
      return { label: 'Out of date', tone: 'warn', pending: false };
    case 'failed':
      return { label: 'Failed', tone: 'danger', pending: false };
    default:
      return { label: status.replaceAll('_', ' '), tone: '', pending: false };
  }
}
