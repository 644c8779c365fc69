// Jobs named in a person's words from the store alone (`status` with the engine stopped):
// never the internal kind and key ("export.sync export.sync:6d01…").
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStore, type Store } from '../../main/engine/store/index.ts';
import { jobWords } from '../../main/engine/views/job-words.ts';
import { statusDocument } from '../../main/engine/views/status.ts';

let dir: string;
let store: Store;
const brandId = '1c7d5e2a-3b4f-4a6c-9d8e-0f1a2b3c4d5e';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'job-words-'));
  store = openStore({ dataDir: dir });
  store.brands.upsertFromService({ id: brandId, name: 'Acme Coffee', status: 'ready' });
});
afterAll(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

test.each([
  ['export.sync', 'Brand Skill of Acme Coffee'],
  ['library.sync', 'Library of Acme Coffee'],
  ['edits.refresh', 'Brand Edits of Acme Coffee'],
  ['refresh-account', 'credits and workspaces'],
  ['some.new-kind', 'some new kind'],
])('%s is said as "%s"', (kind, words) => {
  expect(jobWords(store, { kind, brandId, payload: {} })).toBe(words);
});

test('an upload names its file', () => {
  const { file } = store.files.observe({
    brandId,
    relPath: 'shots/cup.png',
    size: 10,
    mtimeMs: 1,
    kind: 'image',
  });
  expect(
    jobWords(store, {
      kind: 'folder-upload',
      brandId,
      payload: { brandId, sha256: 'x', fileId: file.id },
    }),
  ).toMatch(/^upload .*shots\/cup\.png$/);
});

test('status names waiting jobs in words, not by kind and key', () => {
  const { job } = store.jobs.enqueue(
    { kind: 'export.sync', key: 'export.sync:6d01aa', brandId, payload: {} },
    Date.now(),
  );
  expect(job.id).toBeGreaterThan(0);
  const doc = statusDocument(store);
  for (const entry of [...doc.waiting, ...doc.failedJobs])
    expect(entry.subject).not.toMatch(/export\.sync/);
});
