// The uploads read their files into buffers lent and given back (upload-buffers.ts). A buffer
// given back while its upload still sends from it would let the next file's read overwrite
// bytes not yet sent: the service would get bytes that belong to no file. So every file here
// differs in every byte, the service reads each body slowly (its bytes wait in this process,
// not in the kernel), some uploads are answered early with an error, and the bytes the service
// received must be exactly the files, each once.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { UploadBuffers } from '../../main/engine/folder-sync/upload-buffers.ts';
import { makePngOfSize } from '../folder-parts/fixtures.ts';
import { harness, type Harness } from './harness.ts';

const UPLOAD = 'POST /v1/images/uploads/file';

/** A PNG of `size` bytes whose padding is random: no two such files share a run of bytes. */
function randomPng(size: number): Buffer {
  const png = makePngOfSize(size);
  const data = png.indexOf('peDd', 0, 'latin1') + 4;
  randomBytes(size - 16 - data).copy(png, data);
  return png;
}

describe('UploadBuffers', () => {
  test('a buffer given back is lent again, sized to each loan', () => {
    const buffers = new UploadBuffers();
    const first = buffers.lend(100_000);
    expect(first.bytes.length).toBe(100_000);
    first.giveBack();
    first.giveBack(); // idempotent: kept once
    expect(buffers.kept).toBe(1);
    const second = buffers.lend(200_000);
    expect(second.bytes.length).toBe(200_000);
    expect(second.bytes.buffer).toBe(first.bytes.buffer);
    // Lent out: a second loan gets a buffer of its own.
    const third = buffers.lend(1000);
    expect(third.bytes.buffer).not.toBe(second.bytes.buffer);
    buffers.clear();
  });

  test('a loan larger than every kept buffer gets a new one, and the smallest fit is lent', () => {
    const buffers = new UploadBuffers();
    const small = buffers.lend(10);
    const big = buffers.lend(3_000_000);
    small.giveBack();
    big.giveBack();
    expect(buffers.lend(5).bytes.buffer).toBe(small.bytes.buffer);
    const larger = buffers.lend(4_000_000);
    expect(larger.bytes.buffer).not.toBe(big.bytes.buffer);
    expect(larger.bytes.length).toBe(4_000_000);
    buffers.clear();
  });

  test('no more than keepBytes are kept, and nothing once idle', async () => {
    const buffers = new UploadBuffers({ keepBytes: 600 * 1024, idleMs: 50 });
    const loans = [buffers.lend(300 * 1024), buffers.lend(300 * 1024), buffers.lend(300 * 1024)];
    for (const loan of loans) loan.giveBack();
    expect(buffers.kept).toBe(2);
    await new Promise((r) => setTimeout(r, 120));
    expect(buffers.kept).toBe(0);
  });
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test('reused buffers never change the bytes an upload sends, answered early or not', async () => {
  // Each upload waits before the service reads its body; a fifth are refused at once (an
  // answer before the body is read: the request is abandoned mid-send and tried again).
  h = await harness({ faults: `${UPLOAD}: latency=60-120,5xx=0.2`, seed: 7 });
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const engine = h.open({ uploadConcurrency: 4 });
  await engine.syncOnce();
  // Up to 2 MiB (the uploads' reads through lent buffers), larger than the socket holds.
  const sizes = Array.from({ length: 12 }, (_, i) => 1_200_000 + i * 70_000);
  const sent = await Promise.all(
    sizes.map((size, i) => h!.put('Acme', `f${i}.png`, randomPng(size))),
  );

  const report = await engine.syncOnce();
  expect(report.failures).toEqual([]);
  const early = h.sim.control.log({ route: UPLOAD }).filter((e) => e.status !== 200);
  expect(early.length).toBeGreaterThan(0);
  const received = h.received(brand.id);
  expect(new Set(received.keys())).toEqual(new Set(sent));
  expect([...received.values()].every((n) => n === 1)).toBe(true);
});
