// The command palette on 100,000 Library items (issue 26; goal: first results within 50 ms):
// - the search the palette's query runs (brands, Library items of every brand by file name,
//   description and source, with accents ignored), timed keystroke by keystroke as a person
//   types, p50/p95/max per query, on a real SQLite file mirrored through LibraryRepo's own
//   write path (the word index kept by its triggers);
// - what the index costs the mirror: items written per second with it, and its size;
// - the upgrade: migration 3 indexing a database that already holds the 100,000 items;
// - the same keystrokes as the window asks them: POST /api/search to the headless host (the
//   contract's parsing, the handler, JSON over loopback HTTP), when the renderer is built;
// - for comparison, ranking every match instead of the newest 400 (what find() avoids).
// PALETTE_BENCH_ITEMS=20000 shrinks it for a quick check of the bench itself.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppRuntime } from '../main/engine/app/app-runtime.ts';
import { startHeadlessHost } from '../main/hosts/headless/index.ts';
import { migrations } from '../main/engine/store/migrations.ts';
import { openStore, type LibraryItemInput, type Store } from '../main/engine/store/index.ts';
import { ftsQuery } from '../main/engine/store/library-repo.ts';
import { searchEverything } from '../main/engine/views/search.ts';
import { percentile, report } from './report.ts';

const ITEMS = Number(process.env.PALETTE_BENCH_ITEMS ?? 100_000);
const BRANDS = 20;
const PAGE = 100;
const REPEAT = 30;

// Seeded, so every run searches the same Library.
let seed = 0x2f6b2737;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) >>> 0;
  return seed / 2 ** 32;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const WORDS = [
  'claret',
  'saffron',
  'navy',
  'forest',
  'mint',
  'amber',
  'paper',
  'ink',
  'crème',
  'brûlée',
  'café',
  'façade',
  'Zürich',
  'São',
  'Paulo',
  'poster',
  'hero',
  'banner',
  'label',
  'storefront',
  'latte',
  'bottle',
  'campaign',
  'autumn',
  'summer',
  'winter',
  'spring',
  'menu',
  'flyer',
  'mug',
  'window',
  'street',
  'portrait',
  'team',
  'roastery',
  'tour',
  'close-up',
  'dawn',
  'dusk',
  'night',
  'product',
  'shot',
  'packaging',
  'box',
  'logo',
  'mark',
  'pattern',
  'texture',
  'wall',
  'sign',
];
const SOURCES = ['scraped', 'uploaded', 'generated', 'instagram'];

function description(): string | null {
  if (random() < 0.1) return null;
  const n = 3 + Math.floor(random() * 6);
  return Array.from({ length: n }, () => pick(WORDS)).join(' ');
}

function item(n: number, brand: number): LibraryItemInput {
  const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();
  const fields = {
    id: `item-${brand}-${n}`,
    type: random() < 0.85 ? 'image' : pick(['video', 'audio']),
    source: pick(SOURCES),
    workspaceId: null,
    mimeType: 'image/png',
    url: null,
    fileSize: 1000 + n,
    durationMs: null,
    width: 1200,
    height: 800,
    description: description(),
    inLibrary: true,
    addedToLibraryAt: at,
    generationId: null,
    createdAt: at,
  };
  return { ...fields, raw: fields };
}

/** Item n's brand: a page of PAGE items belongs to one brand, the brands take turns. */
const brandOf = (n: number) => Math.floor(n / PAGE) % BRANDS;

/** A fresh store holding ITEMS items over BRANDS brands, a third named by uploaded files. */
function seedStore(dir: string): { store: Store; writeMs: number } {
  const store = openStore({ dataDir: dir });
  for (let b = 0; b < BRANDS; b++) {
    store.brands.upsertFromService({ id: `brand-${b}`, name: `Brand ${b} ${pick(WORDS)}` });
  }
  // The uploads are recorded first (the usual order): the items' inserts take their names.
  store.db.tx(() => {
    for (let n = 0; n < ITEMS; n += 3) {
      const b = brandOf(n);
      const name = `${pick(WORDS)}/${pick(WORDS)}-${pick(WORDS)}_${n}.png`;
      store.db.run(
        `INSERT INTO files (brand_id, rel_path, path_key, size, mtime_ms, kind, state, image_id,
           first_seen_at, updated_at) VALUES (?, ?, ?, 1, 1, 'image', 'uploaded', ?, 1, 1)`,
        `brand-${b}`,
        name,
        name.toLowerCase(),
        `item-${b}-${n}`,
      );
    }
  });
  const started = performance.now();
  // Pages of one brand each, as the mirror writes them (the service's page size).
  let page: LibraryItemInput[] = [];
  for (let n = 0; n < ITEMS; n++) {
    page.push(item(n, brandOf(n)));
    if (page.length === PAGE || n === ITEMS - 1) {
      store.library.upsertPage(`brand-${brandOf(n)}`, page, { seq: 1, trustedSeq: 0 });
      page = [];
    }
  }
  return { store, writeMs: performance.now() - started };
}

/** Every prefix of `text`, as the palette asks while it is typed (spaces included). */
function keystrokes(text: string): string[] {
  return Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)).filter(
    (t) => t.trim() !== '',
  );
}

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-'));
  try {
    const { store, writeMs } = seedStore(join(dir, 'fresh'));
    const root = join(dir, 'root');
    const typed = [
      'claret',
      'creme brulee',
      'cafe',
      'hero poster',
      'uploaded',
      'zurich sign',
      'qx',
    ];
    const perQuery: Record<string, { p50Ms: number; p95Ms: number; maxMs: number; found: number }> =
      {};
    const all: number[] = [];
    const first: number[] = [];
    for (const text of typed) {
      const samples: number[] = [];
      let found = 0;
      for (let r = 0; r < REPEAT; r++) {
        for (const prefix of keystrokes(text)) {
          const ms = await time(async () => {
            found = (await searchEverything(store, root, prefix)).items.length;
          });
          samples.push(ms);
          if (prefix.length === 1) first.push(ms);
        }
      }
      all.push(...samples);
      perQuery[text] = {
        p50Ms: percentile(samples, 50),
        p95Ms: percentile(samples, 95),
        maxMs: Math.max(...samples),
        found,
      };
    }

    // What find() avoids: ranking every match of a common word's first letters.
    const rankAll = (text: string) =>
      store.db.all(
        `SELECT li.id FROM library_search s CROSS JOIN library_items li ON li.rowid = s.rowid
         WHERE library_search MATCH ? AND li.removed = 0
         ORDER BY bm25(library_search, 10.0, 2.0, 1.0) LIMIT 20`,
        ftsQuery(text),
      );
    const rankAllSamples: number[] = [];
    for (let r = 0; r < 10; r++)
      for (const t of ['c', 'cl', 'up']) rankAllSamples.push(await time(() => rankAll(t)));

    const indexBytes =
      (
        store.db.get<{ bytes: number }>(
          "SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'library_search%'",
        ) ?? { bytes: 0 }
      ).bytes ?? 0;
    store.close();

    const overHttp = await searchOverHttp(join(dir, 'fresh'), root, typed);

    // The upgrade: a database of schema 2 with the same items, opened by this version.
    const oldDir = join(dir, 'old');
    const old = openStore({ dataDir: oldDir }, { migrations: migrations.slice(0, 2) });
    old.db.tx(() => {
      old.db.run(`INSERT INTO brands (id, created_at, updated_at) VALUES ('b', 1, 1)`);
      for (let n = 0; n < ITEMS; n++) {
        old.db.run(
          `INSERT INTO library_items (id, brand_id, type, source, description, sort_at, raw_json,
             first_seen_seq, seen_seq, first_seen_at, last_seen_at)
           VALUES (?, 'b', 'image', ?, ?, ?, '{}', 1, 1, 1, 1)`,
          `old-${n}`,
          pick(SOURCES),
          description(),
          n,
        );
      }
    });
    old.close();
    const migrateMs = await time(() => openStore({ dataDir: oldDir }).close());

    report('palette', {
      items: ITEMS,
      brands: BRANDS,
      search: {
        goalMs: 50,
        keystrokes: all.length,
        p50Ms: percentile(all, 50),
        p95Ms: percentile(all, 95),
        maxMs: Math.max(...all),
        firstLetterP95Ms: percentile(first, 95),
        perQuery,
      },
      overHttp,
      rankingEveryMatchP95Ms: percentile(rankAllSamples, 95),
      mirrorWrite: {
        itemsPerSecond: Math.round(ITEMS / (writeMs / 1000)),
        wordIndexMB: Math.round((indexBytes / 2 ** 20) * 10) / 10,
        databaseMB:
          Math.round((statSync(join(dir, 'fresh', 'brand-sync.db')).size / 2 ** 20) * 10) / 10,
      },
      migration3Ms: migrateMs,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The keystrokes as POST /api/search to the headless host over the same database. */
async function searchOverHttp(
  dataDir: string,
  root: string,
  typed: readonly string[],
): Promise<{ keystrokes: number; p50Ms: number; p95Ms: number; maxMs: number } | string> {
  const renderer = resolve('dist/renderer');
  if (!existsSync(join(renderer, 'index.html'))) return 'skipped: npm run build:renderer first';
  const app = await AppRuntime.start({
    dataDir,
    root,
    keyStore: { load: () => undefined, save: () => undefined, remove: () => false },
    host: { kind: 'browser' },
  });
  const host = await startHeadlessHost({ app, port: 0, rendererDir: renderer });
  try {
    const first = await fetch(host.url, { redirect: 'manual' });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const headers = { cookie, origin: host.origin, 'content-type': 'application/json' };
    const samples: number[] = [];
    for (let r = 0; r < 10; r++) {
      for (const text of typed) {
        for (const prefix of keystrokes(text)) {
          samples.push(
            await time(async () => {
              const response = await fetch(`${host.origin}/api/search`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ text: prefix }),
              });
              const body = (await response.json()) as { ok: boolean };
              if (!body.ok) throw new Error(`search answered ${JSON.stringify(body)}`);
            }),
          );
        }
      }
    }
    return {
      keystrokes: samples.length,
      p50Ms: percentile(samples, 50),
      p95Ms: percentile(samples, 95),
      maxMs: Math.max(...samples),
    };
  } finally {
    await host.close();
    await app.close();
  }
}

await main();
