// file-type does not detect SVG (it is text), so it is recognised here by its first
// element, without an XML parser: nothing is expanded, fetched or run, and only the head
// and the tail of the file are decoded.

export type SvgSniff =
  { svg: false } | { svg: true; problem?: { code: 'TRUNCATED' | 'UNSAFE_SVG'; detail: string } };

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 4 * 1024;
const NOT_SVG: SvgSniff = { svg: false };

function decode(b: Uint8Array, start: number, end: number): string {
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8');
}

/** Index just past the prolog (XML declaration, comments, PIs, DOCTYPE), or a verdict. */
function skipProlog(text: string): number | SvgSniff {
  let i = 0;
  while (true) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith('<?', i) || text.startsWith('<!--', i)) {
      const close = text.startsWith('<?', i) ? '?>' : '-->';
      const end = text.indexOf(close, i + 2);
      if (end === -1) return NOT_SVG;
      i = end + close.length;
    } else if (text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE') {
      const bracket = text.indexOf('[', i);
      const gt = text.indexOf('>', i);
      if (gt === -1) return NOT_SVG;
      let end = gt;
      if (bracket !== -1 && bracket < gt) {
        const subsetEnd = text.indexOf(']', bracket);
        if (subsetEnd === -1) return NOT_SVG;
        // Entity declarations are how XML bombs and external fetches start: refuse them.
        if (/<!ENTITY/i.test(text.slice(bracket, subsetEnd))) {
          return {
            svg: true,
            problem: { code: 'UNSAFE_SVG', detail: 'the SVG declares XML entities' },
          };
        }
        end = text.indexOf('>', subsetEnd);
        if (end === -1) return NOT_SVG;
      }
      i = end + 1;
    } else {
      return i;
    }
  }
}

export function sniffSvg(b: Uint8Array): SvgSniff {
  let head = decode(b, 0, Math.min(b.length, HEAD_BYTES));
  if (head.startsWith('\uFEFF')) head = head.slice(1);
  const start = skipProlog(head);
  if (typeof start !== 'number') return start;
  if (!/^<(svg:)?svg[\s>/]/.test(head.slice(start, start + 9))) return NOT_SVG;

  // Complete when the root element is closed: `</svg>` (or a self-closed `<svg/>`),
  // followed by nothing but white space and comments.
  let tail = decode(b, Math.max(0, b.length - TAIL_BYTES), b.length).trimEnd();
  while (tail.endsWith('-->')) {
    const open = tail.lastIndexOf('<!--');
    if (open === -1) break;
    tail = tail.slice(0, open).trimEnd();
  }
  const closed =
    /<\/(svg:)?svg\s*>$/.test(tail) ||
    (tail.endsWith('/>') && b.length <= HEAD_BYTES && head.indexOf('<', start + 1) === -1);
  if (!closed) {
    return {
      svg: true,
      problem: { code: 'TRUNCATED', detail: 'the SVG does not end with </svg>' },
    };
  }
  return { svg: true };
}
