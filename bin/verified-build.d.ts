// Types of verified-build.js (plain JavaScript, so that the bin can use it before any
// TypeScript runs), for the tests and benches that import it.
export declare const PROJECT: string;
export declare const STAMP_FILE: string;
export declare const BUILD_DIR_ENV: string;
export declare function sourceDigest(project?: string): string;
export declare function statsDigest(project?: string): { digest: string; newest: number };
export declare function sourceStamp(
  project?: string,
  racyMs?: number,
): { sources: string; stats: string | null };
export declare function buildProblem(dir: string, project?: string): string | null;
export declare function entryToRun(
  env?: Record<string, string | undefined>,
  project?: string,
):
  | { url: string; from: 'build' | 'sources'; error?: undefined }
  | { error: string; url?: undefined; from?: undefined };
export declare function build(outDir: string, project?: string): string;
