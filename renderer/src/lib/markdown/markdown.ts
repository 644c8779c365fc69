// Markdown of a Brand Skill, rendered with raw HTML off (a file on disk is still untrusted
// text); relative images and links point at the Brand Skill's own files through the bridge.
import MarkdownIt from 'markdown-it';

/**
 * `resolve` gives a relative image its file URL; `link` gives a relative link the window's own
 * address of that file (the viewer opens it, never a page of its own).
 */
export function createMarkdown(
  resolve: (relative: string) => string,
  link: (relative: string) => string = resolve,
) {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  const image = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, index: number, options, env, self) => {
    const token = tokens[index];
    const raw = token?.attrGet('src');
    const src = raw == null ? null : String(raw);
    if (token && src && !/^[a-z][a-z0-9+.-]*:/i.test(src)) token.attrSet('src', resolve(src));
    return image
      ? image(tokens, index, options, env, self)
      : self.renderToken(tokens, index, options);
  };
  const linkOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, index: number, options, env, self) => {
    const token = tokens[index];
    const raw = token?.attrGet('href');
    const href = raw == null ? null : String(raw);
    if (token && href && /^https?:/i.test(href)) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    } else if (token && href && !/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      // A file of the Skill (its fragment and query dropped): `#…` alone is the file itself.
      token.attrSet('href', link(href.replace(/[?#].*$/s, '')));
      token.attrSet('data-skill-link', '');
    }
    return linkOpen
      ? linkOpen(tokens, index, options, env, self)
      : self.renderToken(tokens, index, options);
  };
  return md;
}

/** `a/b/../c.png` from `a/b/file.md` and `../c.png`, never above the root. */
export function joinRelative(fromFile: string, relative: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const part of relative.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** YAML front matter (between `---` lines at the very top) and the markdown after it. */
export interface FrontMatter {
  /** Top-level keys with their values as written; nested lines stay with their key. */
  entries: Array<[string, string]>;
  body: string;
}

export function splitFrontMatter(text: string): FrontMatter {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { entries: [], body: text };
  const entries: Array<[string, string]> = [];
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const top = /^([^\s#:][^:]*):[ \t]*(.*)$/.exec(line);
    const last = entries.at(-1);
    if (top) entries.push([(top[1] ?? '').trim(), unquote((top[2] ?? '').trim())]);
    else if (last && line.trim() !== '' && !line.trim().startsWith('#'))
      last[1] = `${last[1]}${last[1] ? '\n' : ''}${line.trim()}`;
  }
  return { entries, body: text.slice(match[0].length) };
}

function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] ?? '') : value;
}
