// A Brand Skill whose ZIP lives on another host (the export's storage): a download that host
// refuses (401, 403), asks to wait too long (429) or cuts off again and again fails that
// brand's delivery with its reason after bounded tries, to be tried again at the next sync.
// It never closes the key's rate gate, never pauses the account, never stops the sync as
// "the service is unreachable": the other brand's Brand Skill arrives meanwhile.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import path from 'node:path';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let storage: Server | undefined;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await new Promise((resolve) => (storage ? storage.close(resolve) : resolve(undefined)));
  storage = undefined;
  await h.close();
});

type Refusal = '401' | '403' | '429' | 'cut';

/**
 * A storage host in front of the simulator's files that answers `refusal` for one path. A 429
 * with Retry-After holds every download from that host, by design (download-cut.test.ts): it
 * is answered once the other file has been served, or the other brand's delivery would
 * depend on which request came first.
 */
async function startStorage(refused: () => string | null, refusal: Refusal): Promise<string> {
  const simOrigin = new URL(h.sim.baseUrl).origin;
  let otherServed: () => void = () => {};
  const served = new Promise<void>((resolve) => (otherServed = resolve));
  storage = createServer(async (req, res) => {
    if (req.url === refused()) {
      if (refusal === '429') {
        await Promise.race([served, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      if (refusal === 'cut') {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '100000' });
        res.write(Buffer.alloc(1000, 1));
        setTimeout(() => res.destroy(), 5);
        return;
      }
      res.writeHead(Number(refusal), {
        'content-type': 'application/xml',
        ...(refusal === '429' ? { 'retry-after': '600' } : {}),
      });
      res.end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    const upstream = request(
      `${simOrigin}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on('finish', otherServed);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => storage?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
}

test.each(['403', '401', '429', 'cut'] as const)(
  'a download the storage host answers with %s fails only that brand',
  async (refusal) => {
    const alpha = await h.sim.control.seedBrand({
      name: 'Alpha',
      status: 'ready',
      withExport: true,
    });
    const beta = await h.sim.control.seedBrand({ name: 'Beta', status: 'ready', withExport: true });
    const alphaExport = await h.client.exportAndWait(alpha.id);
    const refusedPath = new URL(alphaExport.download?.url as string).pathname;
    h.sim.control.setDownloadOrigin(await startStorage(() => refusedPath, refusal));
    const engine = h.open();

    const report = await engine.syncOnce();

    // The other brand's Brand Skill arrived; the sync was not stopped as offline.
    expect((await readInstalledSkill(path.join(h.root, 'Beta')))?.skillId).toBe(beta.skillId);
    expect(report.halted).toBeNull();
    expect(await readInstalledSkill(path.join(h.root, 'Alpha'))).toBeNull();
    // Alpha's delivery failed, or waits for its own retry, with the host's reason.
    const alphaJobs = engine.store.jobs
      .list({ brandId: alpha.id })
      .filter((j) => j.kind.startsWith('export'));
    const lastError = alphaJobs.map((j) => j.lastError).find((e) => e !== null);
    if (refusal === 'cut') {
      expect(lastError?.code).toBe('DOWNLOAD_CUT_OFF');
      expect(lastError?.message).toMatch(
        /^the download from 127\.0\.0\.1:\d+ was cut off \d+ times; tried again at the next sync$/,
      );
    } else {
      expect(lastError?.code).toBe('DOWNLOAD_FAILED');
      expect(lastError?.message).toMatch(
        /^the download from 127\.0\.0\.1:\d+ failed \(.+\); tried again at the next sync$/,
      );
    }
    // The pass ended with that reason, the brand named; no job of it waits for a retry.
    expect(report.failures).toEqual([
      expect.objectContaining({ area: 'Brand Skill', subject: 'Alpha', code: lastError?.code }),
    ]);
    expect(alphaJobs.every((j) => j.state === 'failed')).toBe(true);
    // Neither the key's gate, nor the account, nor the connection.
    expect(engine.client.rateGate.pausedUntil).toBeUndefined();
    expect(engine.queue.status().conditions).toEqual([]);
  },
);
