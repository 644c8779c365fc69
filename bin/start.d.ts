/** Why the desktop app cannot start here, or null when it can. */
export function desktopUnavailable(env?: NodeJS.ProcessEnv): string | null;
