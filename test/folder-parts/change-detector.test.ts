import { describe, expect, it } from 'vitest';
import {
  decideMissing,
  decideOnHash,
  decideOnStat,
  decideUnlinked,
  LOCAL_DELETE_NOTICE,
  pickNewestLogo,
} from '../../main/engine/folder-parts/change-detector.ts';
import type { FileRecord } from '../../main/engine/folder-parts/file-record.ts';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

function record(over: Partial<FileRecord> = {}): FileRecord {
  const relPath = over.relPath ?? 'photo.png';
  return {
    brandId: '0b6f3a52-7d1e-4c39-9b7a-2f4d5e6a7b8c',
    relPath,
    pathKey: over.pathKey ?? relPath,
    size: 100,
    mtimeMs: 1000,
    inode: 42,
    sha256: SHA_A,
    kind: 'png',
    state: 'uploaded',
    reason: null,
    bytesSent: 100,
    imageId: 'img-1',
    existing: false,
    ...over,
  };
}

describe('decideOnStat', () => {
  it('does nothing for the same size, mtime and inode, whatever the state', () => {
    for (const state of ['waiting', 'uploading', 'uploaded', 'skipped', 'failed'] as const) {
      expect(
        decideOnStat(record({ state }), {
          pathKey: 'photo.png',
          size: 100,
          mtimeMs: 1000,
          ino: 42,
        }),
      ).toEqual({
        action: 'nothing',
        why: 'unchanged',
      });
    }
  });

  it('rehashes what is new, changed, replaced or back', () => {
    const file = { pathKey: 'photo.png', size: 100, mtimeMs: 1000, ino: 42 };
    expect(decideOnStat(undefined, file)).toEqual({ action: 'rehash', why: 'new' });
    expect(decideOnStat(record({ size: 99 }), file)).toMatchObject({ why: 'size-changed' });
    expect(decideOnStat(record({ mtimeMs: 999 }), file)).toMatchObject({ why: 'mtime-changed' });
    expect(decideOnStat(record({ inode: 43 }), file)).toMatchObject({ why: 'inode-changed' });
    expect(decideOnStat(record({ state: 'deleted' }), file)).toMatchObject({ why: 'reappeared' });
  });

  it('does not take a missing inode as a change', () => {
    const file = { pathKey: 'photo.png', size: 100, mtimeMs: 1000, ino: 0 };
    expect(decideOnStat(record({ inode: null }), { ...file, ino: 42 })).toMatchObject({
      action: 'nothing',
    });
    expect(decideOnStat(record(), file)).toMatchObject({ action: 'nothing' });
  });
});

describe('decideOnHash', () => {
  const moved = { relPath: 'new/place.png', pathKey: 'new/place.png', sha256: SHA_A };

  it('uploads bytes the brand has never had', () => {
    expect(decideOnHash(moved, [])).toEqual({ action: 'upload' });
    expect(decideOnHash(moved, [record({ sha256: SHA_B })])).toEqual({ action: 'upload' });
  });

  it('uploads nothing for a rename, a move or a copy, even after the original was deleted', () => {
    const original = record();
    expect(decideOnHash(moved, [original])).toEqual({
      action: 'record-as-already-uploaded',
      source: original,
    });
    const deletedAfterUpload = record({ state: 'deleted' });
    expect(decideOnHash(moved, [deletedAfterUpload])).toMatchObject({
      action: 'record-as-already-uploaded',
      source: deletedAfterUpload,
    });
    // Deleted before it was ever uploaded: nothing reached the service.
    expect(decideOnHash(moved, [record({ state: 'deleted', imageId: null })])).toEqual({
      action: 'upload',
    });
  });

  it('a file changed in place is a new upload, unless its new bytes are known', () => {
    const atPath = record({ relPath: 'photo.png' });
    expect(decideOnHash({ relPath: 'photo.png', pathKey: 'photo.png', sha256: SHA_B }, [])).toEqual(
      {
        action: 'upload',
      },
    );
    const other = record({ relPath: 'other.png', sha256: SHA_B, imageId: 'img-2' });
    expect(
      decideOnHash({ relPath: 'photo.png', pathKey: 'photo.png', sha256: SHA_B }, [other]),
    ).toMatchObject({
      action: 'record-as-already-uploaded',
      source: other,
    });
    // Touched only (same bytes, new mtime): its own record wins over another with the same bytes.
    const twin = record({ relPath: 'twin.png', imageId: 'img-twin' });
    expect(
      decideOnHash({ relPath: 'photo.png', pathKey: 'photo.png', sha256: SHA_A }, [twin, atPath]),
    ).toEqual({ action: 'record-as-already-uploaded', source: atPath });
  });

  it('follows an upload of the same bytes that is under way, instead of uploading twice', () => {
    const queued = record({ state: 'waiting', imageId: null });
    expect(decideOnHash(moved, [queued])).toEqual({ action: 'wait-for-pending', source: queued });
    const uploading = record({ state: 'uploading', imageId: null });
    expect(decideOnHash(moved, [uploading])).toMatchObject({ action: 'wait-for-pending' });
  });

  it('gives the same verdict to the same refused bytes', () => {
    const skipped = record({
      state: 'skipped',
      imageId: null,
      reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
    });
    expect(decideOnHash(moved, [skipped])).toEqual({
      action: 'record-as-skipped',
      source: skipped,
    });
    const failed = record({ state: 'failed', imageId: null, reason: 'UNSUPPORTED_FORMAT' });
    expect(decideOnHash(moved, [failed])).toMatchObject({ action: 'record-as-skipped' });
  });

  it('keeps the Library and the logo apart: the same bytes in Logo/ are a logo upload', () => {
    const inLibrary = record({ relPath: 'mark.png' });
    const toLogo = { relPath: 'Logo/mark.png', pathKey: 'logo/mark.png', sha256: SHA_A };
    expect(decideOnHash(toLogo, [inLibrary])).toEqual({ action: 'upload' });
    const asLogo = record({ relPath: 'Logo/old.png' });
    expect(decideOnHash(toLogo, [inLibrary, asLogo])).toMatchObject({ source: asLogo });
  });
});

describe('deletions', () => {
  it('says nothing is deleted on the service, and cancels what was pending', () => {
    expect(decideUnlinked(record())).toEqual({
      action: 'deleted',
      record: record(),
      wasPending: false,
      message: LOCAL_DELETE_NOTICE,
    });
    expect(decideUnlinked(record({ state: 'waiting', imageId: null }))).toMatchObject({
      wasPending: true,
      message: 'Deleted before it was uploaded: nothing was sent.',
    });
    expect(decideUnlinked(record({ state: 'deleted' }))).toBeNull();
  });

  it('finds the records a full scan did not see', () => {
    const records = [
      record({ relPath: 'kept.png' }),
      record({ relPath: 'gone.png' }),
      record({ relPath: 'already.png', state: 'deleted' }),
    ];
    const found = new Set(['kept.png']);
    expect(decideMissing(records, (k) => found.has(k)).map((d) => d.record.relPath)).toEqual([
      'gone.png',
    ]);
  });
});

describe('pickNewestLogo', () => {
  it('picks the newest usable file in Logo/', () => {
    const older = record({ relPath: 'Logo/a.png', mtimeMs: 1 });
    const newer = record({ relPath: 'Logo/b.svg', mtimeMs: 5, state: 'waiting' });
    const newestButSkipped = record({ relPath: 'Logo/c.gif', mtimeMs: 9, state: 'skipped' });
    const notLogo = record({ relPath: 'x.png', mtimeMs: 99 });
    expect(pickNewestLogo([older, newer, newestButSkipped, notLogo])).toBe(newer);
    expect(pickNewestLogo([notLogo])).toBeUndefined();
    const tie = record({ relPath: 'Logo/0.png', mtimeMs: 5 });
    expect(pickNewestLogo([newer, tie])).toBe(tie);
  });
});
