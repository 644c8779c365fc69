// `sync --once` over real files: what is uploaded (once), what is skipped and why, and
// that skipped files are not failures.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  makeGif,
  makeJpeg,
  makePng,
  makePngOfSize,
  makeSvg,
  makeWebp,
} from '../folders/fixtures.ts';
import { harness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

describe('sync --once uploads what is new', () => {
  test('accepted images are uploaded once; others are skipped with their reason; the pass is ok', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const png = await h.put('Acme', 'a.png', makePng({ seed: 1 }));
    const jpg = await h.put('Acme', 'deep/er/photo.jpg', makeJpeg(3));
    const webp = await h.put('Acme', 'w.webp', makeWebp());
    await h.put('Acme', 'anim.png', makeGif()); // a GIF named .png
    await h.put('Acme', 'huge.png', makePngOfSize(11 * 1024 * 1024));
    await h.put('Acme', 'empty.png', Buffer.alloc(0));
    await h.put('Acme', 'cut.png', makePng({ seed: 2, width: 40, height: 40 }).subarray(0, 60));
    await h.put('Acme', 'mark.svg', makeSvg());

    const report = await engine.syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);

    const received = h.received(brand.id);
    expect(received).toEqual(
      new Map([
        [png, 1],
        [jpg, 1],
        [webp, 1],
      ]),
    );
    const state = (p: string) => h.file(brand.id, p);
    expect(state('a.png')).toMatchObject({ state: 'uploaded', existing: false, sha256: png });
    expect(state('a.png')?.imageId).toBe(
      h.sim.control.uploads(brand.id).find((u) => u.sha256 === png)?.id,
    );
    expect(state('deep/er/photo.jpg')).toMatchObject({ state: 'uploaded' });
    expect(state('anim.png')).toMatchObject({
      state: 'skipped',
      lastError: 'UNSUPPORTED_FORMAT',
      reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
    });
    expect(state('huge.png')).toMatchObject({ state: 'skipped', lastError: 'TOO_LARGE' });
    expect(state('empty.png')).toMatchObject({ state: 'skipped', lastError: 'EMPTY' });
    expect(state('cut.png')).toMatchObject({ state: 'skipped', lastError: 'TRUNCATED' });
    expect(state('mark.svg')).toMatchObject({ state: 'skipped', lastError: 'SVG_OUTSIDE_LOGO' });

    const section = report.sections.folders as Record<string, unknown> & { summary: string[] };
    expect((section.uploaded as { path: string }[]).map((u) => u.path).sort()).toEqual(
      ['a.png', 'deep/er/photo.jpg', 'w.webp'].sort(),
    );
    expect((section.skipped as { path: string }[]).map((u) => u.path).sort()).toEqual(
      ['anim.png', 'cut.png', 'empty.png', 'huge.png', 'mark.svg'].sort(),
    );
    expect(section.summary).toContain(
      'Skipped Acme/anim.png: GIF is not accepted: PNG, JPEG, WebP or AVIF',
    );

    // Nothing changed: a second pass sends nothing and reports nothing.
    const again = await engine.syncOnce();
    expect(again.ok).toBe(true);
    expect(h.received(brand.id)).toEqual(received);
    expect((again.sections.folders as { uploaded: unknown[] }).uploaded).toEqual([]);
  });
});
