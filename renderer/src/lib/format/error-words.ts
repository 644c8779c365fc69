// What a person reads for a bridge error: plain words first, never a code, an endpoint, a
// socket error or zod's phrasing. The code and the original text stay available for a
// support request (ErrorNote's Details).

export interface ErrorLike {
  code: string;
  message: string;
}

/** Codes whose own message is about the machinery: the words a designer reads instead. */
const WORDS: Record<string, string> = {
  NETWORK_ERROR: 'The service could not be reached. Brand Sync tries again on its own.',
  SERVICE_UNREACHABLE: 'The service could not be reached. Brand Sync tries again on its own.',
  TIMEOUT: 'The service did not answer in time. Brand Sync tries again on its own.',
  INVALID_RESPONSE: 'The service answered in a way Brand Sync does not understand.',
  INTERNAL_ERROR:
    'Something went wrong inside Brand Sync. Try again; if it keeps happening, send the details below to support.',
  INTERNAL_SERVER_ERROR: 'The service had a problem. Try again in a few minutes.',
  HOST_GONE: 'Brand Sync is not running any more.',
  UNKNOWN_CHANNEL: 'This window and Brand Sync do not match: reload the window.',
};

/** Socket and protocol words that never belong in a sentence for a person. */
const INTERNAL = /\b(E[A-Z]{3,}|[A-Z][A-Z0-9]*_[A-Z0-9_]+|GET|POST|PUT|PATCH|DELETE) ?\/?/;

/**
 * The sentence to show for an error. A message that still holds a code or an endpoint after
 * the leading code is cut is replaced by the plain words of its kind.
 */
export function errorWords(error: ErrorLike, fields: Record<string, string> = {}): string {
  const known = WORDS[error.code];
  if (known !== undefined) return known;
  if (error.code === 'VALIDATION_ERROR') return validationWords(error.message, fields);
  // `CODE: the service's message (our hint)`: the hint when there is one, else the message.
  let text = error.message.trim();
  const prefixed = new RegExp(`^${escape(error.code)}: `).exec(text);
  if (prefixed) {
    text = text.slice(prefixed[0].length);
    const hint = /\(([^()]+)\)$/.exec(text);
    if (hint && INTERNAL.test(text.slice(0, hint.index))) text = hint[1] as string;
  }
  if (text === '' || INTERNAL.test(text))
    return 'Something went wrong. The details below say what.';
  return text;
}

/**
 * zod's words (`skillVersionsKept: Too small: expected number to be >=1`), one sentence per
 * field, said with the field's label: "Brand Skill versions kept must be 1 or more."
 */
export function validationWords(message: string, fields: Record<string, string> = {}): string {
  const parts = message
    .replace(/^\w+: (?=\w+(\.\d+)?: )/, '')
    .split('; ')
    .map((part) => {
      const match = /^([\w.]+): (.*)$/.exec(part);
      const field = match ? (match[1] as string).replace(/\.\d+$/, '') : '';
      const label = fields[field] ?? (field === '' ? 'This value' : 'This value');
      return `${label} ${zodPhrase(match ? (match[2] as string) : part)}.`;
    });
  return parts.join(' ');
}

/** One zod issue as the end of a sentence ("must be 1 or more"). */
export function zodPhrase(issue: string): string {
  let m = /expected number to be >=?(-?[\d.]+)/.exec(issue);
  if (m) return `must be ${m[1]} or more`;
  m = /expected number to be <=?(-?[\d.]+)/.exec(issue);
  if (m) return `must be ${m[1]} or less`;
  if (/expected int/.test(issue)) return 'must be a whole number';
  if (/expected number/.test(issue)) return 'must be a number';
  m = /expected string to have >=?(\d+) characters?/.exec(issue);
  if (m) return m[1] === '1' ? 'cannot be empty' : `needs at least ${m[1]} characters`;
  m = /expected string to have <=?(\d+) characters?/.exec(issue);
  if (m) return `can be at most ${m[1]} characters`;
  if (/http\(s\) URL|Invalid URL/i.test(issue))
    return 'must be a web address starting with https://';
  if (/^[a-z]/.test(issue) && !INTERNAL.test(issue)) return issue;
  return 'is not valid';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
