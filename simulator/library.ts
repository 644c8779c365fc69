// The media store and each brand's Library. Items explicitly added (uploads, generated images,
// seeded items) are records; bulk-seeded items are virtual ranges materialised on demand, so a
// Library of 1,000,000 items costs a few bytes. Every item of a brand has a sequence number;
// higher is more recently added, and listing walks from the newest down.
import { padPng, solidPng } from './png.ts';
import { hashString } from './prng.ts';

export interface MediaRecord {
  id: string;
  type: string;
  source: string;
  brandId: string;
  mimeType: string;
  fileSize: number;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  description: string | null;
  inLibrary: boolean;
  generationId: string | null;
  createdAt: number;
  addedAt: number | null;
  seq: number;
  /** The bytes served at the item's url; absent for seeded items, whose bytes are generated. */
  content?: Buffer | (() => Buffer);
}

export interface BulkSpec {
  count: number;
  /** Media families cycled through by index; default 6 images, 2 videos, 2 audio per 10. */
  types?: string[];
  /** Sources cycled through by index; default uploaded, scraped, generated. */
  sources?: string[];
  /** addedAt of the first (oldest) item in ms; default now minus count seconds. */
  startAt?: number;
  /** Simulated ms between two consecutive items; default 1000. */
  stepMs?: number;
  /** Size range in bytes of the generated files; default 2,000-40,000. */
  minSize?: number;
  maxSize?: number;
  /**
   * Images drawn rather than generated: each image item claims art.width×art.height (swapped
   * for a portrait one) and serves draw(id, width, height), padded to its fileSize (so
   * minSize must leave room for the drawing).
   */
  art?: {
    width: number;
    height: number;
    draw: (key: string, width: number, height: number) => Buffer;
  };
}

interface Explicit {
  start: number;
  items: MediaRecord[];
}
interface Bulk {
  start: number;
  count: number;
  tag: string;
  brandId: string;
  spec: Required<Omit<BulkSpec, 'count' | 'art'>> & Pick<BulkSpec, 'art'>;
}
type Segment = Explicit | Bulk;

const DEFAULT_TYPES = [
  'image',
  'image',
  'image',
  'video',
  'image',
  'audio',
  'image',
  'video',
  'image',
  'audio',
];
const DEFAULT_SOURCES = ['uploaded', 'scraped', 'generated'];
const BULK_ID = /^([0-9a-f]{8})-0000-4000-8000-([0-9a-f]{12})$/;

// The types of the bytes media-content.ts makes for them (a browser plays them).
export const MIME_BY_TYPE: Record<string, string> = {
  image: 'image/png',
  video: 'video/webm',
  audio: 'audio/wav',
};

class BrandLibrary {
  segments: Segment[] = [];
  nextSeq = 1;
  /** Sequence numbers of items taken out of the Library (unlistLibraryItem). */
  unlisted = new Set<number>();
  /** sha256 → item id and how many times those bytes were received (uploads only). */
  uploads = new Map<string, { id: string; received: number }>();
}

export interface LibraryPage {
  items: MediaRecord[];
  hasMore: boolean;
}

export class MediaStore {
  #libraries = new Map<string, BrandLibrary>();
  #byId = new Map<string, MediaRecord>();
  #bulkByTag = new Map<string, Bulk>();
  #tagSeed: number;

  constructor(seed: number) {
    this.#tagSeed = seed >>> 0;
  }

  #lib(brandId: string): BrandLibrary {
    let lib = this.#libraries.get(brandId);
    if (!lib) {
      lib = new BrandLibrary();
      this.#libraries.set(brandId, lib);
    }
    return lib;
  }

  /** Stores a record; when inLibrary it becomes the newest Library item of its brand. */
  add(record: Omit<MediaRecord, 'seq'>): MediaRecord {
    const lib = this.#lib(record.brandId);
    const rec: MediaRecord = { ...record, seq: 0 };
    if (rec.inLibrary) {
      rec.seq = lib.nextSeq++;
      const last = lib.segments.at(-1);
      if (last && 'items' in last) last.items.push(rec);
      else lib.segments.push({ start: rec.seq, items: [rec] });
    }
    this.#byId.set(rec.id, rec);
    return rec;
  }

  /** Adds count virtual items to the head of the brand's Library. */
  addBulk(brandId: string, spec: BulkSpec, now: number): { firstSeq: number; count: number } {
    if (!Number.isSafeInteger(spec.count) || spec.count < 1)
      throw new Error('bulk count must be a positive integer');
    const lib = this.#lib(brandId);
    let tag: string;
    do {
      this.#tagSeed = (Math.imul(this.#tagSeed ^ 0x9e3779b9, 0x85ebca6b) + 1) >>> 0;
      tag = this.#tagSeed.toString(16).padStart(8, '0');
    } while (this.#bulkByTag.has(tag));
    const stepMs = spec.stepMs ?? 1000;
    const seg: Bulk = {
      start: lib.nextSeq,
      count: spec.count,
      tag,
      brandId,
      spec: {
        types: spec.types && spec.types.length > 0 ? spec.types : DEFAULT_TYPES,
        sources: spec.sources && spec.sources.length > 0 ? spec.sources : DEFAULT_SOURCES,
        startAt: spec.startAt ?? now - spec.count * stepMs,
        stepMs,
        minSize: spec.minSize ?? 2000,
        maxSize: spec.maxSize ?? 40_000,
        ...(spec.art ? { art: spec.art } : {}),
      },
    };
    lib.nextSeq += spec.count;
    lib.segments.push(seg);
    this.#bulkByTag.set(tag, seg);
    return { firstSeq: seg.start, count: seg.count };
  }

  get(id: string): MediaRecord | undefined {
    const rec = this.#byId.get(id);
    if (rec) return rec;
    const m = BULK_ID.exec(id);
    if (!m) return undefined;
    const seg = this.#bulkByTag.get(m[1] as string);
    const index = parseInt(m[2] as string, 16);
    const lib = seg ? this.#libraries.get(seg.brandId) : undefined;
    if (!seg || !lib || index >= seg.count) return undefined;
    const record = materialise(seg, index);
    if (lib.unlisted.has(record.seq)) record.inLibrary = false;
    return record;
  }

  /**
   * Takes an item out of its brand's Library: listings skip it from now on; it stays a
   * media file (inLibrary false). False when it is not listed in that Library.
   */
  unlist(brandId: string, id: string): boolean {
    const lib = this.#libraries.get(brandId);
    const rec = this.get(id);
    if (!lib || !rec || rec.brandId !== brandId || !rec.inLibrary) return false;
    lib.unlisted.add(rec.seq);
    rec.inLibrary = false; // a stored record keeps the change; a bulk one is rebuilt by get()
    return true;
  }

  /** Items of the brand's Library, newest first, strictly older than `before` (a seq). */
  page(brandId: string, opts: { type?: string; limit: number; before?: number }): LibraryPage {
    const lib = this.#libraries.get(brandId);
    const items: MediaRecord[] = [];
    if (!lib) return { items, hasMore: false };
    const before = opts.before ?? Number.MAX_SAFE_INTEGER;
    for (let s = lib.segments.length - 1; s >= 0; s--) {
      const seg = lib.segments[s] as Segment;
      const len = 'items' in seg ? seg.items.length : seg.count;
      if (seg.start >= before) continue;
      for (let seq = Math.min(seg.start + len - 1, before - 1); seq >= seg.start; seq--) {
        if (lib.unlisted.has(seq)) continue;
        const rec =
          'items' in seg
            ? (seg.items[seq - seg.start] as MediaRecord)
            : materialise(seg, seq - seg.start);
        if (opts.type !== undefined && rec.type !== opts.type) continue;
        if (items.length === opts.limit) return { items, hasMore: true };
        items.push(rec);
      }
    }
    return { items, hasMore: false };
  }

  /** The highest seq handed out for the brand (0 when empty). */
  headSeq(brandId: string): number {
    return (this.#libraries.get(brandId)?.nextSeq ?? 1) - 1;
  }

  /** Records an upload of bytes with this sha256; the id of the item already holding them, if any. */
  findUpload(brandId: string, sha256: string): string | undefined {
    return this.#libraries.get(brandId)?.uploads.get(sha256)?.id;
  }

  countUpload(brandId: string, sha256: string, id: string): void {
    const uploads = this.#lib(brandId).uploads;
    const entry = uploads.get(sha256);
    if (entry) entry.received++;
    else uploads.set(sha256, { id, received: 1 });
  }

  uploads(brandId: string): Array<{ sha256: string; id: string; received: number }> {
    const lib = this.#libraries.get(brandId);
    return lib ? [...lib.uploads].map(([sha256, v]) => ({ sha256, ...v })) : [];
  }

  /** Forgets a brand's Library (the brand was deleted): its items stop resolving. */
  dropBrand(brandId: string): void {
    const lib = this.#libraries.get(brandId);
    if (!lib) return;
    for (const seg of lib.segments) {
      if ('items' in seg) for (const rec of seg.items) this.#byId.delete(rec.id);
      else this.#bulkByTag.delete(seg.tag);
    }
    for (const [id, rec] of this.#byId) if (rec.brandId === brandId) this.#byId.delete(id);
    this.#libraries.delete(brandId);
  }
}

function materialise(seg: Bulk, index: number): MediaRecord {
  const { spec } = seg;
  const type = spec.types[index % spec.types.length] as string;
  const source = spec.sources[index % spec.sources.length] as string;
  const h = hashString(`${seg.tag}:${index}`);
  const at = spec.startAt + index * spec.stepMs;
  const visual = type === 'image' || type === 'video';
  const landscape = h % 3 !== 0;
  const id = `${seg.tag}-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  const fileSize = spec.minSize + (h % (spec.maxSize - spec.minSize + 1));
  const art = type === 'image' ? spec.art : undefined;
  let size = visual ? (landscape ? [1920, 1080] : [1080, 1920]) : null;
  if (art) size = landscape ? [art.width, art.height] : [art.height, art.width];
  return {
    id,
    type,
    source,
    brandId: seg.brandId,
    mimeType: MIME_BY_TYPE[type] ?? 'application/octet-stream',
    fileSize,
    durationMs: type === 'video' || type === 'audio' ? 5000 + (h % 120) * 1000 : null,
    width: size ? (size[0] as number) : null,
    height: size ? (size[1] as number) : null,
    description: h % 4 === 0 ? null : bulkDescription(type, index, h),
    inLibrary: true,
    generationId: source === 'generated' ? uuidFromHash(h, index) : null,
    createdAt: at,
    addedAt: at,
    seq: seg.start + index,
    ...(art && size ? { content: () => drawn(art, id, size, fileSize) } : {}),
  };
}

// Words a studio would give its files, so that a seeded Library reads like one (the demo's
// captions) and search has real words to find; the number keeps every item's text its own.
const SUBJECTS: Record<string, string[]> = {
  image: [
    'Hero banner',
    'Product shot',
    'Poster',
    'Social tile',
    'Packaging mock-up',
    'Lookbook page',
    'Store window',
    'Event invite',
  ],
  video: ['Teaser cut', 'Behind the scenes', 'Product loop', 'Launch reel'],
  audio: ['Radio spot', 'Podcast intro', 'Jingle', 'Voice-over take'],
};
const CAMPAIGNS = [
  'spring launch',
  'summer sale',
  'autumn campaign',
  'holiday edition',
  'brand refresh',
  'open studio',
];

function bulkDescription(type: string, index: number, h: number): string {
  const subjects = SUBJECTS[type] ?? [type];
  const subject = subjects[(h >>> 4) % subjects.length] as string;
  const campaign = CAMPAIGNS[(h >>> 8) % CAMPAIGNS.length] as string;
  return `${subject}, ${campaign} #${index + 1}`;
}

/**
 * A bulk item's drawing at its size and fileSize. One too rich to fit its size is served as
 * a plain picture of the same size instead (still a real PNG of the size it claims).
 */
function drawn(
  art: NonNullable<BulkSpec['art']>,
  id: string,
  [width, height]: number[],
  fileSize: number,
): Buffer {
  const w = width as number;
  const h = height as number;
  return (
    padPng(art.draw(id, w, h), fileSize) ??
    padPng(solidPng(w, h, [128, 128, 128]), fileSize) ??
    Buffer.alloc(fileSize)
  );
}

function uuidFromHash(h: number, index: number): string {
  const a = h.toString(16).padStart(8, '0');
  const b = (index >>> 0).toString(16).padStart(12, '0');
  return `${a}-6e6e-4000-9000-${b}`;
}
