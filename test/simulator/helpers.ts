// Helpers of the simulator's conformance suite: plain fetch against a real simulator on
// 127.0.0.1, and small real image files built by hand.
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { solidPng } from '../../simulator/png.ts';

export const KEY = 'test-key';

/** Parsed JSON of an answer; the assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function start(opts: SimulatorOptions = {}): Promise<Sim> {
  const sim = await startSimulator({ manualClock: true, rateLimit: false, ...opts });
  return new Sim(sim);
}

export interface Res<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOpts {
  body?: unknown;
  headers?: Record<string, string>;
  /** API key to send as x-api-key; null sends no credentials. */
  key?: string | null;
  query?: Record<string, string | number | boolean>;
}

export class Sim {
  readonly sim: Simulator;
  constructor(sim: Simulator) {
    this.sim = sim;
  }
  get control() {
    return this.sim.control;
  }
  get base() {
    return this.sim.baseUrl;
  }
  close() {
    return this.sim.close();
  }

  async call<T = Json>(method: string, path: string, opts: CallOpts = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? KEY : opts.key;
    if (key !== null) headers['x-api-key'] ??= key;
    let body: RequestInit['body'];
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const url = new URL(path.startsWith('http') ? path : this.base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const r = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (a 502 page, a malformed body): body stays undefined
    }
    return { status: r.status, headers: r.headers, body: parsed as T, text };
  }

  get<T = Json>(path: string, opts?: CallOpts) {
    return this.call<T>('GET', path, opts);
  }
  post<T = Json>(path: string, body?: unknown, opts: CallOpts = {}) {
    return this.call<T>('POST', path, { ...opts, body });
  }

  /** Creates a brand and returns its ID (it is analyzing). */
  async createBrand(
    url = 'https://acme.example.com',
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const r = await this.post('/brands', { sources: [{ kind: 'website', url }], ...extra });
    if (r.status !== 200) throw new Error(`create failed: ${r.text}`);
    return r.body.data.id;
  }

  async readyBrand(name = 'Acme'): Promise<{ id: string; skillId: string }> {
    const b = await this.control.seedBrand({ name });
    return { id: b.id, skillId: b.skillId as string };
  }

  /** Resolves once a request to route is being held by the simulator (a long-poll in progress). */
  async held(route: string, count = 1): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      const waiting = this.control
        .log({ route })
        .filter((e) => e.outcome === 'processed' && e.status === null);
      if (waiting.length >= count) return;
      await tick(5);
    }
    throw new Error(`no request to ${route} is being held`);
  }

  /** Moves the simulated clock and lets the event loop deliver what became due. */
  async advance(ms: number): Promise<void> {
    await this.control.advance(ms);
    await tick(5);
  }

  uploadForm(bytes: Buffer, fields: Record<string, string> = {}, name = 'file.bin'): FormData {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return fd;
  }
}

export function tick(ms = 20): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function expectError(res: Res, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 300)}`);
  }
  const e = res.body.error;
  if (e.status !== status || typeof e.message !== 'string')
    throw new Error(`bad envelope: ${res.text}`);
}

// --- real image bytes ---

export function png(w = 40, h = 30, rgb: [number, number, number] = [10, 20, 30]): Buffer {
  return solidPng(w, h, rgb);
}

/** A minimal baseline JPEG header with an SOF0 of w×h (enough for magic bytes and size). */
export function jpeg(w = 64, h = 48): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    h >> 8,
    h & 0xff,
    w >> 8,
    w & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
    sof,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A WebP (VP8X) header of w×h. */
export function webp(w = 50, h = 20): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(w - 1, 24, 3);
  b.writeUIntLE(h - 1, 27, 3);
  return b;
}

/** An AVIF file's ftyp box and an ispe property of w×h. */
export function avif(w = 30, h = 20): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypavif', 4, 'latin1');
  ftyp.write('mif1miaf', 16, 'latin1');
  const ispe = Buffer.alloc(20);
  ispe.writeUInt32BE(20, 0);
  ispe.write('ispe', 4, 'latin1');
  ispe.writeUInt32BE(w, 12);
  ispe.writeUInt32BE(h, 16);
  return Buffer.concat([ftyp, ispe]);
}

export function gif(): Buffer {
  return Buffer.from('474946383961010001000000002c00000000010001000002', 'hex');
}

export function svg(): Buffer {
  return Buffer.from(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40"/></svg>',
  );
}

/** A PNG padded with trailing bytes to exactly size bytes. */
export function pngOfSize(size: number): Buffer {
  const head = png(2, 2);
  const out = Buffer.alloc(size, 7);
  head.copy(out);
  return out;
}
