// The type of a Brand Skill file by its extension (the engine serves it with the same), for a
// drag that must name the type before any byte is fetched.
const TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  css: 'text/css',
  js: 'text/javascript',
  html: 'text/html',
  csv: 'text/csv',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  pdf: 'application/pdf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

export function mimeTypeOfName(name: string): string {
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext === undefined ? undefined : TYPES[ext]) ?? 'application/octet-stream';
}

export function baseName(path: string): string {
  return path.split('/').at(-1) ?? path;
}
