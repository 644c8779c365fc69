// A workspace ID as every command takes it: a UUID (the personal workspace has none: leave it
// out). One check and one message for `credits --workspace`, `brands create --workspace` and
// the window's brand form.
import { isUuid } from '../api/index.ts';

/** Why `value` is no workspace ID, or null when it is one. */
export function workspaceIdProblem(value: string): string | null {
  return isUuid(value)
    ? null
    : `A workspace ID is a UUID, got "${value}" (leave it out for your personal workspace).`;
}
