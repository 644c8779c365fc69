// Entry names: what is accepted as a portable relative path, and which pairs of names
// would be one file on some disk.
import { describe, expect, test } from 'vitest';
import { PathTable, parseEntryName } from '../../main/engine/export-parts/entry-names.ts';
import { ArchiveError } from '../../main/engine/export-parts/errors.ts';
import type { ArchiveErrorCode } from '../../main/engine/export-parts/errors.ts';

const policy = { reservedRootNames: ['.brand-sync-manifest.json'] };

function codeOf(run: () => unknown): ArchiveErrorCode | null {
  try {
    run();
    return null;
  } catch (err) {
    if (err instanceof ArchiveError) return err.code;
    throw err;
  }
}

describe('parseEntryName', () => {
  test.each([
    'SKILL.md',
    'assets/logo.png',
    'Typo graphy/Ünïcödé 字.md',
    'a/b/c/d/',
    '.hidden',
    'x..y.md',
    'con-tent.md',
    'COM10.txt',
  ])('accepts %j', (name) => {
    expect(codeOf(() => parseEntryName(name, policy))).toBeNull();
  });

  test.each<[string, ArchiveErrorCode]>([
    ['', 'INVALID_NAME'],
    ['../x', 'ZIP_SLIP'],
    ['a/../../x', 'ZIP_SLIP'],
    ['a/..', 'ZIP_SLIP'],
    ['/x', 'ABSOLUTE_PATH'],
    ['//server/share/x', 'ABSOLUTE_PATH'],
    ['C:\\x', 'DRIVE_LETTER'],
    ['\\\\server\\share', 'BACKSLASH'],
    ['C:/x', 'DRIVE_LETTER'],
    ['z:x', 'DRIVE_LETTER'],
    ['a\\b', 'BACKSLASH'],
    ['a/./b', 'INVALID_NAME'],
    ['a//b', 'INVALID_NAME'],
    ['./a', 'INVALID_NAME'],
    ['a\u0000b', 'INVALID_NAME'],
    ['a\nb', 'INVALID_NAME'],
    ['a\u009bb', 'INVALID_NAME'],
    ['a<b', 'INVALID_NAME'],
    ['a|b', 'INVALID_NAME'],
    ['a"b', 'INVALID_NAME'],
    ['a*', 'INVALID_NAME'],
    ['a/b:stream', 'INVALID_NAME'],
    [`${'x'.repeat(256)}.md`, 'INVALID_NAME'],
    ['CON', 'RESERVED_NAME'],
    ['nul.txt', 'RESERVED_NAME'],
    ['assets/Aux.png', 'RESERVED_NAME'],
    ['LPT9.md', 'RESERVED_NAME'],
    ['COM\u00b9', 'RESERVED_NAME'],
    ['a./b', 'RESERVED_NAME'],
    ['b ', 'RESERVED_NAME'],
    ['.Brand-Sync-Manifest.json', 'RESERVED_NAME'],
    ['a\u202egnp.exe', 'INVALID_NAME'],
    ['a\u202agnp.exe', 'INVALID_NAME'],
    ['a\u2067b', 'INVALID_NAME'],
    ['a\u200fb', 'INVALID_NAME'],
    ['a\u061cb', 'INVALID_NAME'],
  ])('rejects %j with %s', (name, code) => {
    expect(codeOf(() => parseEntryName(name, policy))).toBe(code);
  });

  test('the manifest name is reserved at the root only', () => {
    expect(codeOf(() => parseEntryName('docs/.brand-sync-manifest.json', policy))).toBeNull();
  });

  test('the error names the entry with invisible characters escaped', () => {
    expect(() => parseEntryName('bad\tname', policy)).toThrow('entry "bad\\tname"');
  });

  test('a bidi control is named by its code point and escaped in the message', () => {
    expect(() => parseEntryName('a\u202egnp.exe', policy)).toThrow(
      'entry "a\\u202Egnp.exe": the name holds the bidirectional control character U+202E',
    );
  });
});

describe('PathTable', () => {
  function addAll(names: string[]): ArchiveErrorCode | null {
    const table = new PathTable();
    return codeOf(() => {
      for (const name of names) table.add(parseEntryName(name, policy), name);
    });
  }

  test.each<[string[], ArchiveErrorCode | null]>([
    [['a/b.md', 'a/c.md', 'a/', 'd/'], null],
    [['a/b.md', 'a/b.md'], 'DUPLICATE_ENTRY'],
    [['a/', 'a/'], 'DUPLICATE_ENTRY'],
    [['a', 'a/b'], 'DUPLICATE_ENTRY'],
    [['a/b', 'a'], 'DUPLICATE_ENTRY'],
    [['a/b', 'a/'], null],
    [['Read.md', 'read.md'], 'CASE_COLLISION'],
    [['Dir/a', 'dir/b'], 'CASE_COLLISION'],
    [['Dir/', 'dir/x'], 'CASE_COLLISION'],
    [['\u00c5.md', 'A\u030a.md'], 'CASE_COLLISION'],
    [['\u00e5/x', '\u00c5/y'], 'CASE_COLLISION'],
  ])('%j → %s', (names, code) => {
    expect(addAll(names)).toBe(code);
  });
});
