// The sources both faces send when a brand is created: in the order the service reads them
// (website, PDFs, Instagram), a PDF with a scheme fetched from its URL, else a local file.
import { expect, test } from 'vitest';
import { creationSources } from '../../main/engine/brands/index.ts';

test('website, then the PDFs as given, then Instagram', () => {
  expect(
    creationSources({
      instagram: 'https://instagram.com/acme',
      pdfs: ['https://acme.test/guide.pdf', 'guides/local.pdf', 'HTTP://acme.test/old.pdf'],
      website: 'https://acme.test',
    }),
  ).toEqual([
    { kind: 'website', url: 'https://acme.test' },
    { kind: 'pdf', url: 'https://acme.test/guide.pdf' },
    { kind: 'pdf', path: 'guides/local.pdf' },
    { kind: 'pdf', url: 'HTTP://acme.test/old.pdf' },
    { kind: 'instagram', url: 'https://instagram.com/acme' },
  ]);
});

test('what is not given is not sent', () => {
  expect(creationSources({ pdfs: ['/tmp/only.pdf'] })).toEqual([
    { kind: 'pdf', path: '/tmp/only.pdf' },
  ]);
  expect(creationSources({})).toEqual([]);
});
