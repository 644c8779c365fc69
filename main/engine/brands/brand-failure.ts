// What to do after a brand ended `failed`: the document groups the creation failure codes
// by action ("correct the input first" or "retry unchanged later"); any other code is shown
// as it is, without a guess.
import { brandFailureAction } from '../api/index.ts';

export type BrandFailureGroup = ReturnType<typeof brandFailureAction>;

export interface BrandFailureAdvice {
  code: string;
  message: string | null;
  group: BrandFailureGroup;
  /** One sentence: what the user does next. */
  advice: string;
}

// Said to designers: no protocol words (the new idempotency key the document asks for is
// the engine's business: a new creation always gets one).
const ADVICE: Record<BrandFailureGroup, string> = {
  'fix-input': 'Fix the source, then create the brand again.',
  'retry-later':
    'The service could not finish this time: create the brand again later with the same sources, unchanged.',
  unknown: 'The service did not say whether the sources or the service were at fault.',
};

export function brandFailureAdvice(
  failure: { code?: string | null; message?: string | null } | null | undefined,
): BrandFailureAdvice {
  const code = failure?.code ?? 'FAILED';
  const group = brandFailureAction(failure?.code);
  return { code, message: failure?.message ?? null, group, advice: ADVICE[group] };
}
