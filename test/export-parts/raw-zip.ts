// A test-only ZIP writer that does what yazl refuses: lying sizes and CRCs, symlink and
// device modes, absolute and backslashed names, duplicates, overlapping entries. Every field
// is written as given, so each hostile archive is exactly the bytes its test describes.
import { crc32, deflateRawSync } from 'node:zlib';

export interface RawEntry {
  name: string | Buffer;
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default), anything else to test refusal. */
  method?: number;
  /** Uncompressed size written in the headers, instead of the true one. */
  declaredSize?: number;
  /** Compressed size written in the headers, instead of the true one. */
  declaredCompressedSize?: number;
  crc?: number;
  /** Unix mode (upper 16 bits of the external attributes); default a regular file 0644. */
  unixMode?: number;
  /** Lower 16 bits of the external attributes (DOS attributes). */
  dosAttributes?: number;
  flags?: number;
  /** Data as stored in the archive, instead of `data` compressed by `method` (sizes and CRC still from `data`). */
  compressedBody?: Buffer;
  /** Point this entry's central record at the local header of an earlier entry. */
  sameDataAs?: number;
}

export const MODE_FILE = 0o100644;
export const MODE_DIR = 0o040755;
export const MODE_SYMLINK = 0o120777;
export const MODE_FIFO = 0o010644;
const UTF8_FLAG = 0x800;
const MADE_BY_UNIX = (3 << 8) | 30;

export function buildZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const [index, e] of entries.entries()) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
    const method = e.method ?? 8;
    const body = e.compressedBody ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = e.crc ?? crc32(data);
    const size = e.declaredSize ?? data.length;
    const compressed = e.declaredCompressedSize ?? body.length;
    const flags = e.flags ?? UTF8_FLAG;
    const external = (((e.unixMode ?? MODE_FILE) << 16) | (e.dosAttributes ?? 0)) >>> 0;

    let localOffset: number;
    if (e.sameDataAs !== undefined) {
      localOffset = offsets[e.sameDataAs] as number;
    } else {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(flags, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(0, 10); // time and date
      local.writeUInt32LE(crc >>> 0, 14);
      local.writeUInt32LE(compressed, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      localOffset = offset;
      locals.push(local, name, body);
      offset += local.length + name.length + body.length;
    }
    offsets[index] = localOffset;

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(compressed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(external, 38);
    central.writeUInt32LE(localOffset, 42);
    centrals.push(central, name);
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
