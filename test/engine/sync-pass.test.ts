// The engine's core pass against the simulator over real HTTP: brands and their folders,
// workspaces and credits, brands gone from the service, and a pass that cannot proceed.
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { createApiClient } from '../../main/engine/api/index.ts';
import { Engine } from '../../main/engine/core/engine.ts';
import { MARKER_FILE } from '../../main/engine/folder-parts/folder-layout.ts';

let sim: Simulator;
let dir: string;
let engine: Engine | undefined;

beforeEach(async () => {
  sim = await startSimulator({ manualClock: true, rateLimit: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'engine-'));
});

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

function open(key = sim.apiKey): Engine {
  const client = createApiClient({
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: key },
    retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 },
  });
  engine = Engine.open({
    dataDir: path.join(dir, 'data'),
    root: path.join(dir, 'root'),
    client,
    queue: { backoff: { baseMs: 5, capMs: 20 } },
  });
  return engine;
}

describe('sync pass: brands, folders, credits', () => {
  test('stores every brand and gives each a folder with its marker', async () => {
    const a = await sim.control.seedBrand({ name: 'Acme Coffee', status: 'ready' });
    const b = await sim.control.seedBrand({ name: 'Blue/Sky: Studio', status: 'analyzing' });
    const report = await open().syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    const stored = engine!.store.brands.list();
    expect(stored.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    const folders = (await readdir(path.join(dir, 'root'))).sort();
    expect(folders).toEqual(['Acme Coffee', 'Blue-Sky- Studio'].sort());
    const marker = JSON.parse(
      await readFile(path.join(dir, 'root', 'Acme Coffee', MARKER_FILE), 'utf8'),
    );
    expect(marker.brandId).toBe(a.id);
    expect(engine!.store.brands.get(a.id)?.folderName).toBe('Acme Coffee');
  });

  test('a listing is stored whole or not at all: one write failing keeps none of it', async () => {
    for (const name of ['One', 'Two', 'Three'])
      await sim.control.seedBrand({ name, status: 'ready' });
    const e = open();
    let upserts = 0;
    e.store.db.setWriteHook((_n, sql) => {
      if (sql.includes('INSERT INTO brands') && sql.includes('DO UPDATE') && ++upserts % 3 === 2)
        throw new Error('disk full');
    });
    const failed = await e.syncOnce();
    expect(failed.ok).toBe(false);
    expect(upserts).toBeGreaterThan(2);
    expect(e.store.brands.list()).toEqual([]);
    expect(await readdir(path.join(dir, 'root')).catch(() => [])).toEqual([]);
    e.store.db.setWriteHook(undefined);
    const report = await e.syncOnce();
    expect(report.ok).toBe(true);
    expect(
      e.store.brands
        .list()
        .map((b) => b.name)
        .sort(),
    ).toEqual(['One', 'Three', 'Two']);
  });

  test('a renamed folder keeps its link; no second folder is made', async () => {
    const a = await sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    await open().syncOnce();
    await rename(path.join(dir, 'root', 'Acme'), path.join(dir, 'root', 'Acme (mine)'));
    const report = await engine!.syncOnce();
    expect(report.ok).toBe(true);
    expect(await readdir(path.join(dir, 'root'))).toEqual(['Acme (mine)']);
    expect(engine!.store.brands.get(a.id)?.folderName).toBe('Acme (mine)');
  });

  test('workspaces and their credits are stored, with their freshness', async () => {
    await sim.control.setCredits(null, { balance: 42 });
    await sim.control.addWorkspace({
      id: '7f1f8a55-1111-4aaa-8bbb-000000000001',
      name: 'Team A',
      balance: 7,
    });
    const report = await open().syncOnce();
    expect(report.ok).toBe(true);
    const credits = engine!.store.workspaces.allCredits();
    expect(credits.find((c) => c.workspaceId === null)?.balance).toBe(42);
    expect(
      credits.find((c) => c.workspaceId === '7f1f8a55-1111-4aaa-8bbb-000000000001')?.balance,
    ).toBe(7);
    expect(engine!.store.freshness().workspacesSyncedAt).not.toBeNull();
  });

  test('a brand deleted on the service keeps its folder, and the user is told', async () => {
    const a = await sim.control.seedBrand({ name: 'Gone Soon', status: 'ready' });
    await open().syncOnce();
    const res = await fetch(`${sim.baseUrl}/brands/${a.id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': sim.apiKey },
    });
    expect(res.status).toBe(200);
    const report = await engine!.syncOnce();
    expect(report.ok).toBe(true);
    expect(await readdir(path.join(dir, 'root'))).toEqual(['Gone Soon']);
    expect(engine!.store.brands.get(a.id)?.deletedRemotely).toBe(true);
    const notices = engine!.store.activity.list({ limit: 20 });
    expect(notices.some((n) => n.code === 'BRAND_DELETED_REMOTELY' && n.brandId === a.id)).toBe(
      true,
    );
  });

  test('a banned account halts the pass with the service code and message', async () => {
    await sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    await sim.control.ban(sim.apiKey);
    const report = await open().syncOnce();
    expect(report.ok).toBe(false);
    expect(report.halted?.code).toBe('ACCOUNT_BANNED');
  });

  test('an unreachable service halts the pass after the grace period', async () => {
    const client = createApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      credentials: { kind: 'api-key', secret: 'k' },
      retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    engine = Engine.open({ dataDir: path.join(dir, 'data'), root: path.join(dir, 'root'), client });
    const report = await engine.syncOnce({ offlineGraceMs: 50 });
    expect(report.ok).toBe(false);
    expect(report.halted?.message).toMatch(/unreachable/);
  });
});
