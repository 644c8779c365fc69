// Local checks of a brand creation: every limit is refused before anything is sent, with an
// error that names the rule; the request hash names "the same creation".
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BrandCreationInputError,
  checkCreationRequest,
  creationHash,
  MAX_FILE_BYTES,
  type BrandCreationInput,
} from '../../main/engine/brands/index.ts';

let dir: string;
let pdf: string;

beforeAll(async () => {
  dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-request-'));
  pdf = path.join(dir, 'guide.pdf');
  await fs.promises.writeFile(pdf, '%PDF-1.7\n% a guide\n%%EOF\n');
});
afterAll(async () => {
  await fs.promises.rm(dir, { recursive: true, force: true });
});

const site = { kind: 'website', url: 'https://acme.example.com' } as const;

async function refusal(input: BrandCreationInput): Promise<BrandCreationInputError> {
  const error = await checkCreationRequest(input).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BrandCreationInputError);
  return error as BrandCreationInputError;
}

/** A file of `size` bytes starting like a PDF, without writing its bytes (sparse). */
async function sparsePdf(name: string, size: number): Promise<string> {
  const file = path.join(dir, name);
  await fs.promises.writeFile(file, '%PDF-1.7\n');
  await fs.promises.truncate(file, size);
  return file;
}

describe('checkCreationRequest', () => {
  test('orders the sources as given; a local PDF gets its absolute path, size and content hash', async () => {
    const request = await checkCreationRequest({
      sources: [
        site,
        { kind: 'pdf', path: path.relative(dir, pdf) },
        { kind: 'pdf', url: 'https://cdn.example.com/guide.pdf' },
        { kind: 'instagram', url: 'https://instagram.com/acme' },
      ],
      instructions: 'Calm and warm.',
      workspaceId: '0B8E5C5E-2F7D-4C55-9E3A-6A1D2C3B4A5F',
      cwd: dir,
    });
    expect(request).toEqual({
      sources: [
        site,
        {
          kind: 'pdf',
          path: pdf,
          size: fs.statSync(pdf).size,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        { kind: 'pdf', url: 'https://cdn.example.com/guide.pdf' },
        { kind: 'instagram', url: 'https://instagram.com/acme' },
      ],
      instructions: 'Calm and warm.',
      allowDuplicate: false,
      workspaceId: '0b8e5c5e-2f7d-4c55-9e3a-6a1d2c3b4a5f',
    });
  });

  test.each([
    [{ sources: [] }, 'NO_SOURCE', /at least one source/],
    [{ sources: [site, site] }, 'TOO_MANY_WEBSITES', /at most one website/],
    [
      {
        sources: [
          site,
          { kind: 'instagram', url: 'https://instagram.com/a' },
          { kind: 'instagram', url: 'https://instagram.com/b' },
        ],
      },
      'TOO_MANY_INSTAGRAM',
      /at most one Instagram/,
    ],
    [
      {
        sources: [
          site,
          ...Array.from({ length: 30 }, (_, i) => ({
            kind: 'pdf' as const,
            url: `https://cdn.example.com/${i}.pdf`,
          })),
        ],
      },
      'TOO_MANY_SOURCES',
      /at most 30 sources, got 31/,
    ],
    [{ sources: [site], instructions: 'x'.repeat(4001) }, 'INSTRUCTIONS_TOO_LONG', /4000.*4001/],
    [{ sources: [site], workspaceId: 'team-1' }, 'INVALID_WORKSPACE', /UUID, got "team-1"/],
    [{ sources: [{ kind: 'website', url: 'acme' }] }, 'INVALID_URL', /website needs an http/],
    [
      { sources: [site, { kind: 'pdf', url: 'http://cdn.example.com/g.pdf' }] },
      'INVALID_URL',
      /A PDF needs an https URL/,
    ],
    [
      { sources: [site, { kind: 'instagram', url: 'ftp://instagram.com/acme' }] },
      'INVALID_URL',
      /Instagram profile needs an https URL/,
    ],
  ] as [BrandCreationInput, string, RegExp][])(
    '%j is refused: %s',
    async (input, code, message) => {
      const error = await refusal(input);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    },
  );

  test('local files: missing, a folder, not a PDF, over 100 MiB, over 256 MiB together', async () => {
    const missing = await refusal({
      sources: [site, { kind: 'pdf', path: path.join(dir, 'no.pdf') }],
    });
    expect(missing.message).toMatch(/no\.pdf: no such file/);
    const folder = await refusal({ sources: [site, { kind: 'pdf', path: dir }] });
    expect(folder.message).toMatch(/not a file/);
    const text = path.join(dir, 'fake.pdf');
    await fs.promises.writeFile(text, 'hello');
    expect((await refusal({ sources: [site, { kind: 'pdf', path: text }] })).code).toBe(
      'NOT_A_PDF',
    );
    const big = await sparsePdf('big.pdf', MAX_FILE_BYTES + 1);
    const tooBig = await refusal({ sources: [site, { kind: 'pdf', path: big }] });
    expect(tooBig.code).toBe('SOURCE_FILE_TOO_LARGE');
    const parts = await Promise.all([1, 2, 3].map((i) => sparsePdf(`part${i}.pdf`, 90 * 2 ** 20)));
    const together = await refusal({
      sources: [site, ...parts.map((p) => ({ kind: 'pdf' as const, path: p }))],
    });
    expect(together.code).toBe('SOURCE_FILES_TOO_LARGE');
    expect(together.message).toMatch(/256 MiB/);
  });

  test('the hash: equal for the same request, different when a file, an option or the workspace differs', async () => {
    const base = { sources: [site, { kind: 'pdf' as const, path: pdf }] };
    const one = creationHash(await checkCreationRequest(base));
    expect(creationHash(await checkCreationRequest(base))).toBe(one);
    expect(creationHash(await checkCreationRequest({ ...base, allowDuplicate: true }))).not.toBe(
      one,
    );
    expect(creationHash(await checkCreationRequest({ ...base, instructions: 'x' }))).not.toBe(one);
    const copy = path.join(dir, 'copy.pdf');
    await fs.promises.writeFile(copy, '%PDF-1.7\n% another guide\n');
    expect(
      creationHash(await checkCreationRequest({ sources: [site, { kind: 'pdf', path: copy }] })),
    ).not.toBe(one);
  });
});
