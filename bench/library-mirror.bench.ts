// Library mirror and offline queries (issue 4):
// - mirroring a 100,000-item Library from the simulator: items per second, and the ratio
//   to inserting the same rows straight into SQLite in one transaction;
// - requests an unchanged refresh makes (target: 1 per brand);
// - p95 of the offline list query (newest first, filtered by type, a page deep in the list)
//   over 100,000 and 1,000,000 items (target < 2 ms);
// - peak RSS of a process mirroring 1,000,000 items (target < 200 MB: pages are streamed).
// The simulator runs in its own process and so does each mirror, so that an RSS figure is
// the mirror's alone. This one file plays all three roles (argv[2]).
// LIBRARY_BENCH_LARGE=100000 shrinks the large Library for a quick check of the bench itself.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createApiClient, RateGate } from '../main/engine/api/index.ts';
import type { ApiClient } from '../main/engine/api/index.ts';
import { clientPageSource, LibraryMirror, toLibraryItem } from '../main/engine/library/index.ts';
import { openStore } from '../main/engine/store/index.ts';
import type { Store } from '../main/engine/store/index.ts';
import { percentile, report } from './report.ts';

const SMALL = 100_000;
const LARGE = Number(process.env.LIBRARY_BENCH_LARGE ?? 1_000_000);
const QUERY_SAMPLES = 2000;
const self = fileURLToPath(import.meta.url);

interface SimInfo {
  baseUrl: string;
  origin: string;
  key: string;
  small: string;
  large: string;
  tiny: string;
}

interface MirrorReport {
  ms: number;
  items: number;
  requests: number;
  /** Runtime, modules and open database, before the first request. */
  rssBeforeMB: number;
  /** RSS when a tenth and when all of the Library had been read: flat when pages are streamed. */
  rssAtTenthMB: number;
  rssAtEndMB: number;
  maxRssMB: number;
  /** Live JS heap after a full GC at the end: what the mirror holds on to. */
  heapAfterGcMB: number;
}

function clientFor(baseUrl: string, key: string): ApiClient {
  return createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: key },
    rateGate: new RateGate(),
    timeoutMs: 60_000,
  });
}

/** Role 'simulator': the service, with the Libraries seeded; lives until stdin closes. */
async function serveSimulator(): Promise<void> {
  const key = `sk-bench-${randomBytes(12).toString('hex')}`;
  // Imported here only: the mirror processes must not carry the simulator's code in their RSS.
  const { startSimulator } = await import('../simulator/index.ts');
  const sim = await startSimulator({ apiKeys: [key], rateLimit: false, logLimit: 50_000 });
  const seed = async (count: number): Promise<string> => {
    const { id } = await sim.control.seedBrand({ status: 'ready' });
    if (count > 0) sim.control.seedLibrary(id, { bulk: { count } });
    return id;
  };
  const info: SimInfo = {
    baseUrl: sim.baseUrl,
    origin: sim.origin,
    key,
    small: await seed(SMALL),
    large: await seed(LARGE),
    tiny: await seed(37),
  };
  process.stdout.write(JSON.stringify(info) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
}

/** Role 'mirror': one first sync of one brand into a data dir; reports time and peak RSS. */
async function mirrorOnce(dataDir: string, baseUrl: string, brandId: string): Promise<void> {
  const key = process.env.BENCH_API_KEY as string;
  const store = openStore({ dataDir });
  // The engine's path: pages with the items as sent, normalized by the mirror.
  const mirror = new LibraryMirror({ store, source: clientPageSource(clientFor(baseUrl, key)) });
  const mb = (bytes: number): number => bytes / 2 ** 20;
  const expected = Number(process.env.BENCH_ITEMS);
  const rssBeforeMB = mb(process.memoryUsage.rss());
  let rssAtTenthMB = 0;
  const start = performance.now();
  const result = await mirror.syncBrand(brandId, {
    onProgress: (read) => {
      if (rssAtTenthMB === 0 && read >= expected / 10) rssAtTenthMB = mb(process.memoryUsage.rss());
    },
  });
  const ms = performance.now() - start;
  const rssAtEndMB = mb(process.memoryUsage.rss());
  store.close();
  (globalThis as { gc?: () => void }).gc?.();
  const out: MirrorReport = {
    ms,
    items: result.itemsRead,
    requests: result.requests,
    rssBeforeMB,
    rssAtTenthMB,
    rssAtEndMB,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    heapAfterGcMB: mb(process.memoryUsage().heapUsed),
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function spawnRole(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--expose-gc', self, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`${args[0]} exited with ${code} before answering`)),
    );
  });
  return { child, firstLine };
}

async function mirrorInChild(
  sim: SimInfo,
  brandId: string,
  dataDir: string,
  items: number,
): Promise<MirrorReport> {
  const { firstLine } = spawnRole(['mirror', dataDir, sim.baseUrl, brandId], {
    BENCH_API_KEY: sim.key,
    BENCH_ITEMS: String(items),
  });
  return JSON.parse(await firstLine) as MirrorReport;
}

/** Inserts the rows the mirror stored, straight into a fresh database, in one transaction. */
function baselineInsert(
  mirrored: Store,
  brandId: string,
  dir: string,
): { ms: number; rows: number } {
  const raws = mirrored.db
    .all<{ raw_json: string }>('SELECT raw_json FROM library_items WHERE brand_id = ?', brandId)
    .map((row) => toLibraryItem(JSON.parse(row.raw_json)));
  const store = openStore({ dataDir: dir });
  store.brands.ensure(brandId);
  const insert = store.db.raw.prepare(
    `INSERT INTO library_items (id, brand_id, type, source, workspace_id, mime_type, url, file_size, duration_ms,
       width, height, description, in_library, added_to_library_at, generation_id, created_at, sort_at, raw_json,
       first_seen_seq, seen_seq, first_seen_at, last_seen_at, removed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?, 0)`,
  );
  const now = Date.now();
  const start = performance.now();
  store.db.raw.transaction(() => {
    for (const item of raws) {
      if (item === null) continue;
      insert.run(
        item.id,
        brandId,
        item.type,
        item.source,
        item.workspaceId,
        item.mimeType,
        item.url,
        item.fileSize,
        item.durationMs,
        item.width,
        item.height,
        item.description,
        item.inLibrary === null ? null : item.inLibrary ? 1 : 0,
        item.addedToLibraryAt,
        item.generationId,
        item.createdAt,
        Date.parse(item.addedToLibraryAt ?? item.createdAt ?? '') || now,
        JSON.stringify(item.raw),
        now,
        now,
      );
    }
  })();
  const ms = performance.now() - start;
  store.close();
  return { ms, rows: raws.length };
}

/** p95/p50 of list() for pages deep in the list (50-95 % down), newest first, one type. */
function deepListQuery(
  store: Store,
  brandId: string,
  type: string,
): { p50: number; p95: number; depth: string } {
  const total = store.library.count(brandId, { type });
  // Walk once to collect cursors at depths from 50 % to 95 % of the list.
  const cursors: string[] = [];
  let cursor: string | null = null;
  let seen = 0;
  const from = Math.floor(total * 0.5);
  const to = Math.floor(total * 0.95);
  while (seen < to) {
    const page = store.library.list(brandId, { type, limit: 500, cursor });
    seen += page.items.length;
    cursor = page.nextCursor;
    if (cursor === null) break;
    if (seen >= from) cursors.push(cursor);
  }
  const times: number[] = [];
  for (let i = 0; i < QUERY_SAMPLES; i++) {
    const at = cursors[i % cursors.length] as string;
    const start = performance.now();
    const page = store.library.list(brandId, { type, limit: 50, cursor: at });
    times.push(performance.now() - start);
    if (page.items.length === 0) throw new Error('a deep page came back empty');
  }
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    depth: `${from}-${to} of ${total}`,
  };
}

async function libraryRequests(sim: SimInfo): Promise<number> {
  const url = `${sim.origin}/_control/log?route=${encodeURIComponent('GET /v1/brands/{id}/library')}`;
  const body = (await (await fetch(url)).json()) as { data: unknown[] };
  return body.data.length;
}

async function orchestrate(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'library-bench-'));
  const simulator = spawnRole(['simulator']);
  try {
    const sim = JSON.parse(await simulator.firstLine) as SimInfo;

    // 1. A 100,000-item Library, and the same rows inserted straight.
    const smallDir = join(work, 'small');
    const small = await mirrorInChild(sim, sim.small, smallDir, SMALL);
    const smallStore = openStore({ dataDir: smallDir });
    const baseline = baselineInsert(smallStore, sim.small, join(work, 'baseline'));
    const mirrorRate = small.items / (small.ms / 1000);
    const baselineRate = baseline.rows / (baseline.ms / 1000);

    // 2. An unchanged refresh, per brand (the 100,000-item one and a small one).
    const client = clientFor(sim.baseUrl, sim.key);
    const mirror = new LibraryMirror({ store: smallStore, source: clientPageSource(client) });
    await mirror.syncBrand(sim.tiny);
    await fetch(`${sim.origin}/_control/clearLog`, { method: 'POST' });
    const refreshSmall = await mirror.syncBrand(sim.small);
    const refreshTiny = await mirror.syncBrand(sim.tiny);
    const seenBySimulator = await libraryRequests(sim);

    // 3. Offline list query over 100,000 items.
    const query100k = deepListQuery(smallStore, sim.small, 'image');
    smallStore.close();

    // 4. A 1,000,000-item Library in its own process: peak RSS; then the query over it.
    const largeDir = join(work, 'large');
    const large = await mirrorInChild(sim, sim.large, largeDir, LARGE);
    const largeStore = openStore({ dataDir: largeDir });
    const query1m = deepListQuery(largeStore, sim.large, 'image');
    largeStore.close();

    report('library-mirror', {
      mirror100k: {
        items: small.items,
        requests: small.requests,
        seconds: small.ms / 1000,
        itemsPerSecond: mirrorRate,
        straightInsertRowsPerSecond: baselineRate,
        ratioToStraightInsert: mirrorRate / baselineRate,
        peakRssMB: small.maxRssMB,
      },
      unchangedRefresh: {
        requestsFor100kBrand: refreshSmall.requests,
        requestsFor37ItemBrand: refreshTiny.requests,
        requestsSeenBySimulator: seenBySimulator,
        targetPerBrand: 1,
      },
      listQueryDeepPageByType: {
        items100k: { p50ms: query100k.p50, p95ms: query100k.p95, depth: query100k.depth },
        items1m: { p50ms: query1m.p50, p95ms: query1m.p95, depth: query1m.depth },
        targetP95ms: 2,
      },
      mirror1m: {
        items: large.items,
        requests: large.requests,
        seconds: large.ms / 1000,
        itemsPerSecond: large.items / (large.ms / 1000),
        peakRssMB: large.maxRssMB,
        targetPeakRssMB: 200,
        rssBeforeFirstRequestMB: large.rssBeforeMB,
        rssAtTenthMB: large.rssAtTenthMB,
        rssAtEndMB: large.rssAtEndMB,
        liveHeapAfterGcMB: large.heapAfterGcMB,
      },
    });
  } finally {
    simulator.child.stdin.end();
    rmSync(work, { recursive: true, force: true });
  }
}

const role = process.argv[2];
if (role === 'simulator') await serveSimulator();
else if (role === 'mirror')
  await mirrorOnce(process.argv[3] as string, process.argv[4] as string, process.argv[5] as string);
else await orchestrate();
