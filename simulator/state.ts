// The simulator's in-memory world: keys and bans, workspaces and credits, brands, skills,
// exports, images, the media store, edits, beta jobs, staged uploads, upload tokens and the
// files served for download. Work on these records lives in work/*.ts; this module keeps them,
// hands out IDs, and tells long-poll waiters when a resource changed.
import { createHmac, randomBytes } from 'node:crypto';
import type { SimClock, TimerHandle } from './clock.ts';
import { SimError } from './errors.ts';
import { MediaStore } from './library.ts';
import type {
  BetaJob,
  Brand,
  Credits,
  Edit,
  ExportRec,
  ImageRec,
  Skill,
  StagedUpload,
  UploadToken,
  Workspace,
} from './model.ts';
import { Prng } from './prng.ts';

/** Simulated durations of the asynchronous work, in ms; all settable through control. */
export interface Durations {
  brandAnalysisMs: number;
  logoAnalysisMs: number;
  exportMs: number;
  imageMs: number;
  betaPendingMs: number;
  betaProcessingMs: number;
  editPrepareMs: number;
  uploadTokenTtlMs: number;
  stagedUploadTtlMs: number;
}

export const DEFAULT_DURATIONS: Durations = {
  brandAnalysisMs: 30_000,
  logoAnalysisMs: 10_000,
  exportMs: 5_000,
  imageMs: 10_000,
  betaPendingMs: 2_000,
  betaProcessingMs: 30_000,
  editPrepareMs: 15_000,
  uploadTokenTtlMs: 15 * 60_000,
  stagedUploadTtlMs: 60 * 60_000,
};

/** Outcomes forced by control for the next pieces of work of each kind (FIFO). */
export interface Outcomes {
  brand: Array<{ failCode: string | null }>;
  beta: Array<{ failCode: string | null }>;
  export: Array<{ fail: { retryable: boolean } | null }>;
  image: Array<{ failReason: string | null }>;
}

export interface ServedFile {
  content: Buffer | (() => Buffer);
  mimeType: string;
  fileName: string;
}

export interface KeyInfo {
  label: string;
  banned: boolean;
}

export interface Account {
  email: string;
  name: string;
  /** Plan features: image-edit (else 403 FORBIDDEN), 4k (else 403 FEATURE_NOT_ENTITLED),
   * model-selection (else 403 BETA_ACCESS_REQUIRED when a model is chosen). */
  entitlements: Set<string>;
}

/** A download cut off after `afterBytes` of its body (Range honoured unless `ignoreRange`). */
export interface DownloadCut {
  path: string;
  afterBytes: number;
  ignoreRange: boolean;
  /** Answers still to cut (Infinity: every one). */
  remaining: number;
}

export class SimState {
  readonly clock: SimClock;
  readonly rng: Prng;
  readonly durations: Durations;
  readonly media: MediaStore;
  /** The server's origin (http://127.0.0.1:port); set once it listens. */
  origin = '';
  /** Where export ZIPs are said to be (a storage host of their own); null: this server. */
  downloadOrigin: string | null = null;
  /** Downloads cut off on purpose (control.cutDownloads): by path, with how many bytes get through. */
  downloadCuts: DownloadCut[] = [];
  /** Whether a brand record names its active Skill (`skillId`); a service may not. */
  brandRecordNamesSkill = true;
  readonly #secret = randomBytes(16);

  readonly keys = new Map<string, KeyInfo>();
  account: Account = {
    email: 'designer@example.com',
    name: 'Demo Designer',
    entitlements: new Set(['image-edit', '4k', 'model-selection']),
  };
  readonly workspaces = new Map<string, Workspace>();
  /** Credits by workspace ID; the personal workspace is the key "personal". */
  readonly credits = new Map<string, Credits>();

  readonly brands = new Map<string, Brand>();
  readonly skills = new Map<string, Skill>();
  readonly exports = new Map<string, ExportRec>();
  /** The latest export of each Skill version. */
  readonly exportBySkill = new Map<string, string>();
  readonly images = new Map<string, ImageRec>();
  readonly edits = new Map<string, Edit>();
  readonly betaJobs = new Map<string, BetaJob>();
  readonly staged = new Map<string, StagedUpload>();
  readonly uploadTokens = new Map<string, UploadToken>();
  readonly files = new Map<string, ServedFile>();
  /** Whether a website source matching a live brand answers 409 DUPLICATE_BRAND. */
  duplicateDetection = true;

  readonly outcomes: Outcomes = { brand: [], beta: [], export: [], image: [] };
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #timers = new Set<TimerHandle>();

  constructor(opts: { clock: SimClock; seed: number; durations?: Partial<Durations> }) {
    this.clock = opts.clock;
    this.rng = new Prng(opts.seed);
    this.durations = { ...DEFAULT_DURATIONS, ...opts.durations };
    this.media = new MediaStore(opts.seed ^ 0x5eed);
    this.credits.set('personal', { balance: 100, unlimited: false, paymentRequired: false });
  }

  #seq = 0;

  /** A position key for listings: strictly increasing. */
  nextSeq(): number {
    return ++this.#seq;
  }

  newId(): string {
    return this.rng.uuid();
  }

  /** An unguessable token for URLs (never from the seeded generator). */
  token(): string {
    return randomBytes(18).toString('base64url');
  }

  /** A keyed signature of an ID: the unguessable part of a media URL, computable for bulk items. */
  sign(id: string): string {
    return createHmac('sha256', this.#secret).update(id).digest('base64url').slice(0, 22);
  }

  now(): number {
    return this.clock.now();
  }

  iso(at: number | null | undefined): string | null {
    return at === null || at === undefined ? null : this.clock.iso(at);
  }

  /** Runs fn after delayMs of simulated time; all such timers stop at close(). */
  after(delayMs: number, fn: () => void): TimerHandle {
    const handle = this.clock.setTimeout(() => {
      this.#timers.delete(handle);
      fn();
    }, delayMs);
    this.#timers.add(handle);
    return handle;
  }

  readonly #inFlight = new Set<Promise<unknown>>();

  /** Keeps track of asynchronous work (ZIP building) so that settle() can wait for it. */
  track(work: Promise<unknown>): void {
    const p = work.finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
  }

  /** Resolves once all tracked work has finished (including work it started). */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  dispose(): void {
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
  }

  // --- change notification (long-poll) ---

  watch(key: string, fn: () => void): () => void {
    let set = this.#watchers.get(key);
    if (!set) {
      set = new Set();
      this.#watchers.set(key, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.#watchers.delete(key);
    };
  }

  notify(key: string): void {
    for (const fn of [...(this.#watchers.get(key) ?? [])]) fn();
  }

  // --- served files ---

  /** Serves content at an unguessable path under /files/<kind>/; returns the absolute URL. */
  serveFile(kind: string, file: ServedFile): string {
    const path = `/files/${kind}/${this.token()}/${encodeURIComponent(file.fileName)}`;
    this.files.set(path, file);
    return path;
  }

  url(path: string): string {
    return this.origin + path;
  }

  // --- keys, workspaces, credits ---

  addKey(key: string): KeyInfo {
    const existing = this.keys.get(key);
    if (existing) return existing;
    const info = { label: `key${this.keys.size + 1}`, banned: false };
    this.keys.set(key, info);
    return info;
  }

  keyByLabel(label: string): KeyInfo | undefined {
    for (const info of this.keys.values()) if (info.label === label) return info;
    return undefined;
  }

  workspaceName(id: string | null): string {
    return id === null ? 'Personal' : (this.workspaces.get(id)?.name ?? 'Unknown workspace');
  }

  /**
   * The workspace a request names (absent, null or empty: the personal one, null); 404
   * WORKSPACE_NOT_FOUND when it does not exist or is not accessible to the caller.
   */
  requireWorkspace(id: unknown): string | null {
    if (id === undefined || id === null || id === '') return null;
    const ws = typeof id === 'string' ? this.workspaces.get(id) : undefined;
    if (!ws || !ws.accessible) {
      throw new SimError(404, 'WORKSPACE_NOT_FOUND', 'workspace not found or not accessible');
    }
    return ws.id;
  }

  creditsOf(workspaceId: string | null): Credits {
    const key = workspaceId ?? 'personal';
    let c = this.credits.get(key);
    if (!c) {
      c = { balance: 0, unlimited: false, paymentRequired: false };
      this.credits.set(key, c);
    }
    return c;
  }
}
