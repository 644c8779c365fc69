import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mediaCacheMaxBytesSetting, queuePausedSetting } from '../../main/engine/store/index.ts';
import type { Store } from '../../main/engine/store/index.ts';
import { openTempStore } from './open-temp-store.ts';
import type { TempStore } from './open-temp-store.ts';

let t: TempStore;
let store: Store;
beforeEach(() => {
  t = openTempStore();
  store = t.store;
});
afterEach(() => t.cleanup());

const sha = (c: string): string => c.repeat(64);

describe('brands', () => {
  it('keeps the raw record with unknown fields and unknown statuses', () => {
    const brand = store.brands.upsertFromService({
      id: 'b1',
      status: 'logo_required',
      name: 'Acme',
      failure: null,
      futureField: { nested: [1, 2] },
    });
    expect(brand).toMatchObject({
      id: 'b1',
      status: 'logo_required',
      name: 'Acme',
      deletedRemotely: false,
    });
    expect(store.brands.get('b1')?.raw).toMatchObject({ futureField: { nested: [1, 2] } });
    expect(store.brands.get('b1')?.lastSyncedAt).toBe(t.clock.now);
  });

  it('records failure code, message, skill and workspace', () => {
    store.brands.upsertFromService({
      id: 'b1',
      status: 'failed',
      failure: { code: 'SCRAPE_FAILED', message: 'site down' },
      skillId: 's1',
      workspaceId: 'w1',
    });
    expect(store.brands.get('b1')).toMatchObject({
      failureCode: 'SCRAPE_FAILED',
      failureMessage: 'site down',
      skillId: 's1',
      workspaceId: 'w1',
    });
  });

  it('links one folder to one brand', () => {
    store.brands.upsertFromService({ id: 'b1', status: 'ready' });
    store.brands.upsertFromService({ id: 'b2', status: 'ready' });
    store.brands.setFolder('b1', 'Acme');
    expect(store.brands.findByFolder('Acme')?.id).toBe('b1');
    expect(() => store.brands.setFolder('b2', 'Acme')).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('b1') }),
    );
    expect(() => store.brands.setFolder('nope', 'Other')).toThrowError(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(() => store.brands.upsertFromService({ id: '' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('marks brands missing from a complete listing as deleted remotely, and revives them when seen', () => {
    store.brands.upsertFromService({ id: 'b1', status: 'ready' });
    store.brands.upsertFromService({ id: 'b2', status: 'ready' });
    expect(store.brands.markMissingAsDeleted(['b1'])).toBe(1);
    expect(store.brands.list().map((b) => b.id)).toEqual(['b1']);
    expect(store.brands.list({ includeDeleted: true }).map((b) => b.id)).toEqual(['b1', 'b2']);
    store.brands.upsertFromService({ id: 'b2', status: 'ready' });
    expect(store.brands.get('b2')?.deletedRemotely).toBe(false);
  });

  it('removing a brand removes its files, uploads and Library (foreign keys)', () => {
    store.brands.upsertFromService({ id: 'b1', status: 'ready' });
    const { file } = store.files.observe({
      brandId: 'b1',
      relPath: 'a.png',
      size: 1,
      mtimeMs: 1,
      kind: 'image',
    });
    store.files.setHash(file.id, sha('a'));
    store.files.markUploaded(file.id, { imageId: 'i1', existing: false });
    expect(store.brands.remove('b1')).toBe(true);
    expect(store.files.get(file.id)).toBeUndefined();
    expect(store.files.uploadOf('b1', sha('a'))).toBeUndefined();
  });

  it('refuses a file for a brand it does not know (foreign key)', () => {
    expect(() =>
      store.files.observe({
        brandId: 'ghost',
        relPath: 'a.png',
        size: 1,
        mtimeMs: 1,
        kind: 'image',
      }),
    ).toThrow(/FOREIGN KEY/);
  });
});

describe('files', () => {
  beforeEach(() => store.brands.upsertFromService({ id: 'b1', status: 'ready' }));

  it('tells new, unchanged, changed and reappeared apart', () => {
    const base = {
      brandId: 'b1',
      relPath: 'logos/a.png',
      size: 10,
      mtimeMs: 1000,
      inode: 7,
      kind: 'image' as const,
    };
    const first = store.files.observe(base);
    expect(first.change).toBe('new');
    expect(first.file).toMatchObject({
      state: 'waiting',
      inode: '7',
      sha256: null,
      relPath: 'logos/a.png',
    });
    expect(store.files.observe(base).change).toBe('unchanged');
    store.files.setHash(first.file.id, sha('a'));
    store.files.markUploaded(first.file.id, { imageId: 'img1', existing: false });
    const changed = store.files.observe({ ...base, size: 11 });
    expect(changed.change).toBe('changed');
    expect(changed.file).toMatchObject({
      state: 'waiting',
      sha256: null,
      imageId: null,
      bytesSent: 0,
    });
    store.files.markDeleted(first.file.id);
    expect(store.files.observe({ ...base, size: 11 }).change).toBe('reappeared');
  });

  it('writes a hash given with the stat into a new or changed row, never into an unchanged one', () => {
    const base = {
      brandId: 'b1',
      relPath: 'a.png',
      size: 10,
      mtimeMs: 1000,
      kind: 'image' as const,
    };
    const first = store.files.observe({ ...base, sha256: sha('a') });
    expect(first).toMatchObject({ change: 'new', file: { sha256: sha('a'), state: 'waiting' } });
    // Same stat: the row keeps the hash it has (the caller compares and sets its own).
    const same = store.files.observe({ ...base, sha256: sha('b') });
    expect(same).toMatchObject({ change: 'unchanged', file: { sha256: sha('a') } });
    store.files.markUploaded(first.file.id, { imageId: 'img1', existing: false });
    const changed = store.files.observe({ ...base, size: 11, sha256: sha('c') });
    expect(changed).toMatchObject({
      change: 'changed',
      file: { sha256: sha('c'), state: 'waiting', imageId: null },
    });
    expect(() => store.files.observe({ ...base, relPath: 'b.png', sha256: 'ABC' })).toThrow(
      /64 lowercase hex digits/,
    );
    expect(store.files.getByPath('b1', 'b.png')).toBeUndefined();
  });

  it('treats NFC/NFD and case variants of one path as one file', () => {
    const nfd = 'Cafe\u0301/Logo.PNG';
    const a = store.files.observe({
      brandId: 'b1',
      relPath: nfd,
      size: 1,
      mtimeMs: 1,
      kind: 'logo',
    });
    const b = store.files.observe({
      brandId: 'b1',
      relPath: 'café/logo.png',
      size: 1,
      mtimeMs: 1,
      kind: 'logo',
    });
    expect(b.file.id).toBe(a.file.id);
    expect(b.change).toBe('unchanged');
    expect(b.file.relPath).toBe('café/logo.png');
    expect(a.file.relPath).toBe('Café/Logo.PNG'.normalize('NFC'));
    expect(store.files.getByPath('b1', 'CAFÉ/LOGO.png')?.id).toBe(a.file.id);
  });

  it('rejects paths that leave the brand folder and bad values', () => {
    for (const relPath of ['/abs.png', '../up.png', 'a//b.png', 'C:/x.png', '']) {
      expect(() =>
        store.files.observe({ brandId: 'b1', relPath, size: 1, mtimeMs: 1, kind: 'image' }),
      ).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
    expect(() =>
      store.files.observe({ brandId: 'b1', relPath: 'a.png', size: -1, mtimeMs: 1, kind: 'image' }),
    ).toThrow(/whole number/);
    expect(() =>
      store.files.observe({
        brandId: 'b1',
        relPath: 'a.png',
        size: 1,
        mtimeMs: 1,
        kind: 'video' as 'image',
      }),
    ).toThrow(/image, logo/);
    const { file } = store.files.observe({
      brandId: 'b1',
      relPath: 'a.png',
      size: 1,
      mtimeMs: 1,
      kind: 'image',
    });
    expect(() => store.files.setHash(file.id, 'xyz')).toThrow(/64 lowercase hex/);
    expect(() => store.files.markUploaded(file.id, { imageId: 'i', existing: false })).toThrow(
      /before it is hashed/,
    );
    expect(() => store.files.setState(file.id, 'sleeping' as 'waiting')).toThrow(
      /waiting, uploading/,
    );
  });

  it('remembers which bytes a brand holds, so a copy or a rename uploads nothing', () => {
    const a = store.files.observe({
      brandId: 'b1',
      relPath: 'a.png',
      size: 5,
      mtimeMs: 1,
      kind: 'image',
    }).file;
    store.files.setHash(a.id, sha('b'));
    store.files.markUploaded(a.id, { imageId: 'img-b', existing: false });
    expect(store.files.uploadOf('b1', sha('b'))).toMatchObject({
      imageId: 'img-b',
      existing: false,
      size: 5,
    });
    const copy = store.files.observe({
      brandId: 'b1',
      relPath: 'copy/a.png',
      size: 5,
      mtimeMs: 2,
      kind: 'image',
    }).file;
    store.files.setHash(copy.id, sha('b'));
    expect(store.files.findBySha('b1', sha('b')).map((f) => f.relPath)).toEqual([
      'a.png',
      'copy/a.png',
    ]);
    const moved = store.files.rename(a.id, 'moved/a.png');
    expect(moved).toMatchObject({
      id: a.id,
      relPath: 'moved/a.png',
      state: 'uploaded',
      imageId: 'img-b',
    });
    expect(() => store.files.rename(copy.id, 'MOVED/A.png')).toThrow(/another indexed file/);
  });

  it('lists by brand and state in id pages and counts by state', () => {
    for (let i = 0; i < 5; i++) {
      store.files.observe({
        brandId: 'b1',
        relPath: `f${i}.png`,
        size: i,
        mtimeMs: 1,
        kind: 'image',
      });
    }
    const first = store.files.list({ brandId: 'b1', limit: 3 });
    const second = store.files.list({ brandId: 'b1', limit: 3, afterId: first.at(-1)?.id });
    expect([...first, ...second].map((f) => f.relPath)).toEqual([
      'f0.png',
      'f1.png',
      'f2.png',
      'f3.png',
      'f4.png',
    ]);
    store.files.setState(first[0]!.id, 'skipped', { reason: 'UNSUPPORTED_FORMAT' });
    store.files.setState(first[1]!.id, 'failed', {
      reason: 'FILE_TOO_LARGE',
      attempts: 1,
      lastError: 'too big',
    });
    expect(store.files.list({ state: 'skipped' }).map((f) => f.reason)).toEqual([
      'UNSUPPORTED_FORMAT',
    ]);
    expect(store.files.countsByState('b1')).toMatchObject({
      waiting: 3,
      skipped: 1,
      failed: 1,
      uploaded: 0,
    });
    expect(() => store.files.list({ limit: 0 })).toThrow(/page size/);
  });
});

describe('settings', () => {
  it('reads typed values with defaults and validates writes', () => {
    expect(store.settings.read(queuePausedSetting)).toBe(false);
    store.settings.write(queuePausedSetting, true);
    expect(store.settings.read(queuePausedSetting)).toBe(true);
    expect(() => store.settings.write(mediaCacheMaxBytesSetting, -5)).toThrowError(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('library.mediaCacheMaxBytes'),
      }),
    );
  });

  it('falls back to the default when a stored value no longer fits its schema', () => {
    store.settings.set('library.mediaCacheMaxBytes', 'lots');
    expect(store.settings.read(mediaCacheMaxBytesSetting)).toBe(mediaCacheMaxBytesSetting.fallback);
    expect(store.settings.get('library.mediaCacheMaxBytes', z.string(), 'x')).toBe('lots');
  });

  it('never stores a credential', () => {
    for (const key of ['apiKey', 'api_key', 'auth.token', 'bearer', 'password']) {
      expect(() => store.settings.set(key, 'sk-live-123')).toThrowError(
        expect.objectContaining({ code: 'SECRET_REFUSED' }),
      );
    }
    expect(store.settings.all()).toEqual({});
  });
});

describe('workspaces and credits', () => {
  it('keeps the personal workspace as key "personal" and replaces the list', () => {
    store.workspaces.replaceAll([
      { id: null, name: 'Me', is_personal: true },
      { id: 'w1', name: 'Team' },
    ]);
    store.workspaces.setCredits(null, { balance: 12, unlimited: false });
    store.workspaces.setCredits('w1', { balance: 0, unlimited: true, extra: 1 });
    expect(store.workspaces.list().map((w) => [w.key, w.id, w.isPersonal])).toEqual([
      ['personal', null, true],
      ['w1', 'w1', false],
    ]);
    expect(store.workspaces.credits(null)).toMatchObject({
      balance: 12,
      unlimited: false,
      syncedAt: t.clock.now,
    });
    store.workspaces.replaceAll([{ id: null, name: 'Me' }]);
    expect(store.workspaces.credits('w1')).toBeUndefined();
    expect(store.workspaces.allCredits().map((c) => c.workspaceKey)).toEqual(['personal']);
    expect(() =>
      store.workspaces.setCredits(null, { balance: Number.NaN, unlimited: false }),
    ).toThrow(/finite/);
  });
});

describe('exports, Brand Edits, activity and sync state', () => {
  beforeEach(() => store.brands.upsertFromService({ id: 'b1', status: 'ready' }));

  it('tracks exports and the installed one', () => {
    store.exports.upsertFromService('b1', { id: 'e1', skillId: 's1', status: 'preparing' });
    t.clock.now += 1000;
    store.exports.upsertFromService('b1', {
      id: 'e1',
      skillId: 's1',
      status: 'ready',
      download: { url: 'https://x/z' },
    });
    expect(store.exports.latestInstalled('b1')).toBeUndefined();
    store.exports.markInstalled('e1', '/root/Acme/Brand Skill');
    expect(store.exports.latestInstalled('b1')).toMatchObject({
      skillId: 's1',
      status: 'ready',
      downloadUrl: 'https://x/z',
      path: '/root/Acme/Brand Skill',
    });
    store.exports.upsertFromService('b1', {
      id: 'e2',
      status: 'failed',
      failure: { retryable: true },
    });
    expect(store.exports.get('e2')?.failureRetryable).toBe(true);
    expect(() => store.exports.markInstalled('nope', '/x')).toThrowError(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('keeps Brand Edits whole and replaces a brand listing', () => {
    store.edits.upsert('b1', {
      id: 'x1',
      status: 'awaiting_approval',
      changeSet: { schemaVersion: 2 },
    });
    store.edits.upsert('b1', { id: 'x2', status: 'brand_new_state' });
    expect(store.edits.list('b1', { status: 'brand_new_state' }).map((e) => e.id)).toEqual(['x2']);
    expect(store.edits.get('b1', 'x1')?.raw).toMatchObject({ changeSet: { schemaVersion: 2 } });
    store.edits.replaceForBrand('b1', [{ id: 'x2', status: 'applied' }]);
    expect(store.edits.list('b1').map((e) => [e.id, e.status])).toEqual([['x2', 'applied']]);
  });

  it('logs activity newest first, filters by level and brand, and prunes', () => {
    store.activity.add({
      level: 'info',
      code: 'UPLOADED',
      message: 'a.png uploaded',
      brandId: 'b1',
      path: 'a.png',
    });
    store.activity.add({
      level: 'error',
      code: 'FILE_TOO_LARGE',
      message: 'b.png too big',
      brandId: 'b1',
    });
    store.activity.add({ level: 'warn', code: 'OFFLINE', message: 'offline' });
    expect(store.activity.list().map((e) => e.code)).toEqual([
      'OFFLINE',
      'FILE_TOO_LARGE',
      'UPLOADED',
    ]);
    expect(store.activity.list({ minLevel: 'warn' }).map((e) => e.code)).toEqual([
      'OFFLINE',
      'FILE_TOO_LARGE',
    ]);
    expect(store.activity.list({ brandId: 'b1', limit: 1 }).map((e) => e.code)).toEqual([
      'FILE_TOO_LARGE',
    ]);
    expect(store.activity.prune(1)).toBe(2);
    expect(store.activity.list().map((e) => e.code)).toEqual(['OFFLINE']);
    expect(() => store.activity.add({ level: 'loud' as 'info', code: 'X', message: 'x' })).toThrow(
      /debug, info/,
    );
  });

  it('reports freshness of brands, credits and libraries', () => {
    store.syncState.markSynced('brands', '');
    store.workspaces.setCredits(null, { balance: 1, unlimited: false });
    const seq = store.syncState.begin('library', 'b1');
    expect(store.freshness().libraries).toEqual([
      {
        brandId: 'b1',
        lastRefreshAt: null,
        lastFullPassAt: null,
        lastAttemptAt: t.clock.now,
        lastError: null,
      },
    ]);
    t.clock.now += 5000;
    store.syncState.complete('library', 'b1', seq, { fullPass: true });
    const fresh = store.freshness();
    expect(fresh.brandsSyncedAt).toBe(t.clock.now - 5000);
    expect(fresh.credits).toEqual([{ workspaceKey: 'personal', syncedAt: t.clock.now - 5000 }]);
    expect(fresh.libraries[0]).toMatchObject({
      lastRefreshAt: t.clock.now,
      lastFullPassAt: t.clock.now,
    });
    expect(store.syncState.get('library', 'b1')).toMatchObject({
      seq: 1,
      completedSeq: 1,
      fullPassSeq: 1,
    });
  });
});

describe('transactions and the write hook', () => {
  it('commits relaxed writes without fsync and every other write with it', () => {
    // The setting a commit ran under; it is switched lazily, just before a commit.
    const sync = (): unknown => store.db.raw.pragma('synchronous', { simple: true });
    const write = (n: number) => store.settings.set(`probe.${n}`, n);
    expect(sync()).toBe(2); // FULL
    store.db.relaxed(() => write(1));
    expect(sync()).toBe(1); // NORMAL
    store.db.relaxed(() => store.transaction(() => write(2)));
    expect(sync()).toBe(1);
    write(3);
    expect(sync()).toBe(2);
    store.transaction(() => write(4));
    expect(sync()).toBe(2);
    expect(() =>
      store.db.relaxed(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    write(5); // relaxed() left nothing behind
    expect(sync()).toBe(2);
    // Inside a transaction the outer commit decides: nothing is switched.
    store.transaction(() => store.db.relaxed(() => write(6)));
    expect(sync()).toBe(2);
    store.db.relaxed(() => write(7));
    store.transaction(() => write(8));
    expect(sync()).toBe(2);
  });

  it('rolls back every write of a transaction when one fails', () => {
    store.brands.upsertFromService({ id: 'b1', status: 'ready' });
    let calls = 0;
    store.setWriteHook((n) => {
      calls = n;
      if (n === 2) throw new Error('injected');
    });
    expect(() =>
      store.transaction(() => {
        store.files.observe({
          brandId: 'b1',
          relPath: 'one.png',
          size: 1,
          mtimeMs: 1,
          kind: 'image',
        });
        store.files.observe({
          brandId: 'b1',
          relPath: 'two.png',
          size: 1,
          mtimeMs: 1,
          kind: 'image',
        });
      }),
    ).toThrow('injected');
    expect(calls).toBe(2);
    store.setWriteHook(undefined);
    expect(store.files.list()).toEqual([]);
  });
});
