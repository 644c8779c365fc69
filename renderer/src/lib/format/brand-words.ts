// What a failed brand's card says: one instruction, in words a designer acts on. The engine's
// advice names the kind of failure (the sources, or the service); its code and the service's
// own message stay behind Details.

export function failureInstruction(
  failure: { code: string | null; advice: string | null } | null,
): string {
  const advice = failure?.advice ?? '';
  if (/^Fix the source/i.test(advice)) {
    return 'A source could not be read: check that it opens in a browser, then retry.';
  }
  if (/later|could not finish/i.test(advice)) {
    return 'The service could not finish this time: retry with the same sources.';
  }
  return 'Retry with the same sources; if it fails again, create the brand from other sources.';
}

/** A Brand Edit's operation as a past participle: "Colour 1 · changed", never "replace". */
export function operationWords(operation: string | null): string {
  switch ((operation ?? '').toLowerCase()) {
    case 'add':
    case 'added':
    case 'create':
    case 'insert':
      return 'added';
    case 'remove':
    case 'removed':
    case 'delete':
      return 'removed';
    default:
      return 'changed';
  }
}

/** Beside "Versions kept": how many are on disk, of the most the setting keeps ("1 of at most 2"). */
export function versionsWords(onDisk: number, kept: number): string {
  return `${onDisk.toLocaleString()} of at most ${kept.toLocaleString()}`;
}
