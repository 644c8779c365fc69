// Markdown of a Brand Skill, rendered with raw HTML off (a file on disk is still untrusted
// text); relative images and links point at the Brand Skill's own files through the bridge.
import MarkdownIt from 'markdown-it';

export function createMarkdown(resolve: (relative: string) => string) {
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
  const link = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, index: number, options, env, self) => {
    const token = tokens[index];
    const raw = token?.attrGet('href');
    const href = raw == null ? null : String(raw);
    if (token && href && /^https?:/i.test(href)) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return link
      ? link(tokens, index, options, env, self)
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
