// Account answers reach the window: a banned account (or a revoked key) stops the queue, the
// session says what happened with the service's words, a notification says to sign in again,
// and nothing mirrored is deleted.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { KEY, startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
beforeAll(async () => {
  b = await startBridge();
});
afterAll(async () => {
  await b?.close();
});

test('a banned account: the session names the problem, a notification asks to sign in, the mirror stays', async () => {
  await until(async () => {
    const nw = (await b.ok('status')).brands.find(
      (x: { name: string }) => x.name === 'Northwind Coffee',
    );
    return nw?.skill.installedSkillId && nw.library.items > 0;
  }, 'the first sync');
  const folders = (await readdir(b.root)).sort();
  expect(folders).toContain('Northwind Coffee');
  const from = b.app.journal.lastSeq;
  b.sim.control.ban(KEY);
  await b.ok('syncNow');
  const session = await until(async () => {
    const s = await b.ok('session');
    return s.problem ? s : undefined;
  }, 'the session to name the problem');
  expect(session.problem.code).toBe('ACCOUNT_BANNED');
  expect(session.problem.message.length).toBeGreaterThan(10);
  const notify = b.app.journal.since(from).events.find((e) => e.type === 'notify');
  expect(notify).toMatchObject({ kind: 'signed-out' });
  const status = await b.ok('status');
  expect(status.queue.paused).toBe(true);
  expect(status.brands.length).toBeGreaterThan(0);
  expect((await readdir(b.root)).sort()).toEqual(folders);
  expect((await b.ok('library', { brandId: 'Northwind Coffee' })).items.length).toBeGreaterThan(0);
  expect(path.isAbsolute(b.root)).toBe(true);
});
