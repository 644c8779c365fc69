// Files dropped onto the window (addFiles) reach the brand folder only when they are images
// the Library takes, judged by their bytes: anything else is refused, named, before a copy.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addFileToFolder } from '../../main/engine/folder-sync/add-files.ts';
import { makePng } from '../folder-parts/fixtures.ts';

describe('addFileToFolder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'add-files-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  test('an image is copied in; a text file, or text named .png, is refused with its name and why, and nothing is written', async () => {
    await expect(addFileToFolder(dir, 'shelf.png', makePng({ seed: 5 }))).resolves.toBe(
      'shelf.png',
    );
    for (const name of ['notes.txt', 'disguised.png']) {
      const refused = addFileToFolder(dir, name, Buffer.from('a note, not a picture\n'));
      await expect(refused).rejects.toMatchObject({
        code: 'NOT_AN_IMAGE',
        message: expect.stringMatching(
          new RegExp(`^${name.replace('.', '\\.')} was not added: .*PNG, JPEG, WebP or AVIF`),
        ),
      });
    }
    const pdf = Buffer.from(
      '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n',
      'latin1',
    );
    await expect(addFileToFolder(dir, 'brief.pdf', pdf)).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
      message: expect.stringContaining('brief.pdf was not added: PDF is not accepted'),
    });
    expect(await readdir(dir)).toEqual(['shelf.png']);
  });
});
