// Pictures for the demo, drawn rather than flat: a small deterministic rasteriser (gradients,
// circles, rings, rounded rectangles, convex polygons, stripes, each edge anti-aliased by its
// signed distance) that writes PNGs through png.ts. The same key, size and palette always give
// the same bytes, and results are cached, so seeding and serving stay quick.
import { encodePng } from './png.ts';
import { hashString, Prng } from './prng.ts';

export type Rgb = [number, number, number];

/** A brand's colours as the art uses them: a deep primary, a vivid accent, a light ground. */
export interface ArtPalette {
  primary: Rgb;
  accent: Rgb;
  light: Rgb;
}

/** Fill of a layer at a point: a colour, or a function of the point. */
type Paint = Rgb | ((x: number, y: number) => Rgb);

interface Layer {
  /** Signed distance in pixels to the shape's edge: negative inside. */
  dist: (x: number, y: number) => number;
  paint: Paint;
  alpha: number;
  /** Bounding box [x0, y0, x1, y1] outside which the layer covers nothing. */
  box: [number, number, number, number];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
/** Math.hypot is several times slower, and this runs once a pixel. */
const len = (x: number, y: number): number => Math.sqrt(x * x + y * y);
const clamp01 = (t: number): number => (t < 0 ? 0 : t > 1 ? 1 : t);

/** A linear gradient from (x0, y0) in colour a to (x1, y1) in colour b. */
export function linear(x0: number, y0: number, x1: number, y1: number, a: Rgb, b: Rgb): Paint {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy || 1;
  return (x, y) => mix(a, b, clamp01(((x - x0) * dx + (y - y0) * dy) / len2));
}

/** A radial gradient: colour a at the centre, b at radius r and beyond. */
export function radial(cx: number, cy: number, r: number, a: Rgb, b: Rgb): Paint {
  return (x, y) => mix(a, b, clamp01(len(x - cx, y - cy) / r));
}

/** A picture being drawn: layers composed over an opaque or transparent ground. */
export class Art {
  readonly width: number;
  readonly height: number;
  readonly #layers: Layer[] = [];

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }

  #add(dist: Layer['dist'], paint: Paint, alpha: number, box: Layer['box']): this {
    this.#layers.push({ dist, paint, alpha, box });
    return this;
  }

  /** Fills the whole picture. */
  fill(paint: Paint, alpha = 1): this {
    return this.#add(() => -1e9, paint, alpha, [0, 0, this.width, this.height]);
  }

  circle(cx: number, cy: number, r: number, paint: Paint, alpha = 1): this {
    return this.#add((x, y) => len(x - cx, y - cy) - r, paint, alpha, [
      cx - r - 1,
      cy - r - 1,
      cx + r + 1,
      cy + r + 1,
    ]);
  }

  ring(cx: number, cy: number, r: number, thickness: number, paint: Paint, alpha = 1): this {
    const o = r + thickness / 2 + 1;
    return this.#add((x, y) => Math.abs(len(x - cx, y - cy) - r) - thickness / 2, paint, alpha, [
      cx - o,
      cy - o,
      cx + o,
      cy + o,
    ]);
  }

  roundRect(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    radius: number,
    paint: Paint,
    alpha = 1,
  ): this {
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    const hw = (x1 - x0) / 2 - radius;
    const hh = (y1 - y0) / 2 - radius;
    return this.#add(
      (x, y) => {
        const qx = Math.abs(x - cx) - hw;
        const qy = Math.abs(y - cy) - hh;
        const outside = len(Math.max(qx, 0), Math.max(qy, 0));
        return outside + Math.min(Math.max(qx, qy), 0) - radius;
      },
      paint,
      alpha,
      [x0 - 1, y0 - 1, x1 + 1, y1 + 1],
    );
  }

  /** A convex polygon, its points in either winding order. */
  polygon(points: Array<[number, number]>, paint: Paint, alpha = 1): this {
    const n = points.length;
    let area = 0;
    for (let i = 0; i < n; i++) {
      const [ax, ay] = points[i] as [number, number];
      const [bx, by] = points[(i + 1) % n] as [number, number];
      area += ax * by - bx * ay;
    }
    const sign = area >= 0 ? 1 : -1;
    // Each edge as an outward unit normal and offset: the distance is the largest of them.
    const edges = points.map((p, i) => {
      const [ax, ay] = p;
      const [bx, by] = points[(i + 1) % n] as [number, number];
      const edge = len(bx - ax, by - ay) || 1;
      const nx = (sign * (by - ay)) / edge;
      const ny = (sign * -(bx - ax)) / edge;
      return { nx, ny, c: nx * ax + ny * ay };
    });
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return this.#add(
      (x, y) => {
        let d = -Infinity;
        for (const e of edges) d = Math.max(d, e.nx * x + e.ny * y - e.c);
        return d;
      },
      paint,
      alpha,
      [Math.min(...xs) - 1, Math.min(...ys) - 1, Math.max(...xs) + 1, Math.max(...ys) + 1],
    );
  }

  /** Parallel bands across the whole picture at `angle` degrees, `period` apart. */
  stripes(angle: number, period: number, band: number, paint: Paint, alpha = 1): this {
    const ux = Math.cos((angle * Math.PI) / 180);
    const uy = Math.sin((angle * Math.PI) / 180);
    return this.#add(
      (x, y) => {
        const t = (((x * ux + y * uy) % period) + period) % period;
        return Math.abs(t - period / 2) - band / 2;
      },
      paint,
      alpha,
      [0, 0, this.width, this.height],
    );
  }

  /** The picture as a PNG: RGB when opaque, RGBA when `transparent` (the ground left clear). */
  png(transparent = false): Buffer {
    const { width: w, height: h } = this;
    const channels = transparent ? 4 : 3;
    const out = new Uint8Array(w * h * channels);
    const r = new Float32Array(w * h);
    const g = new Float32Array(w * h);
    const b = new Float32Array(w * h);
    const a = new Float32Array(w * h);
    for (const layer of this.#layers) {
      const x0 = Math.max(0, Math.floor(layer.box[0]));
      const y0 = Math.max(0, Math.floor(layer.box[1]));
      const x1 = Math.min(w, Math.ceil(layer.box[2]));
      const y1 = Math.min(h, Math.ceil(layer.box[3]));
      const flat = typeof layer.paint === 'function' ? null : layer.paint;
      for (let y = y0; y < y1; y++) {
        const py = y + 0.5;
        for (let x = x0; x < x1; x++) {
          const px = x + 0.5;
          const cover = clamp01(0.5 - layer.dist(px, py)) * layer.alpha;
          if (cover <= 0) continue;
          const c = flat ?? (layer.paint as (x: number, y: number) => Rgb)(px, py);
          const i = y * w + x;
          // "Over" compositing, colours kept unpremultiplied.
          const below = a[i] as number;
          const outA = cover + below * (1 - cover);
          const keep = (below * (1 - cover)) / outA;
          const take = cover / outA;
          r[i] = c[0] * take + (r[i] as number) * keep;
          g[i] = c[1] * take + (g[i] as number) * keep;
          b[i] = c[2] * take + (b[i] as number) * keep;
          a[i] = outA;
        }
      }
    }
    for (let i = 0; i < w * h; i++) {
      const o = i * channels;
      out[o] = Math.round(r[i] as number);
      out[o + 1] = Math.round(g[i] as number);
      out[o + 2] = Math.round(b[i] as number);
      if (transparent) out[o + 3] = Math.round((a[i] as number) * 255);
    }
    return encodePng(w, h, out, channels);
  }
}

/** A bounded cache of drawn pictures: the demo asks for the same few again and again. */
const cache = new Map<string, Buffer>();
function cached(key: string, draw: () => Buffer): Buffer {
  const hit = cache.get(key);
  if (hit) return hit;
  const made = draw();
  if (cache.size >= 400) cache.delete(cache.keys().next().value as string);
  cache.set(key, made);
  return made;
}

const paletteKey = (p: ArtPalette): string => [p.primary, p.accent, p.light].flat().join(',');
const darker = (c: Rgb, t: number): Rgb => mix(c, [0, 0, 0], t);
const lighter = (c: Rgb, t: number): Rgb => mix(c, [255, 255, 255], t);

/**
 * A picture for a Library item, `width`×`height` exactly, in the brand's colours: one of a few
 * compositions (a sunrise over hills, a product on a card, a poster of circles, bands and a
 * frame), chosen and varied by the key.
 */
export function libraryArt(key: string, width: number, height: number, p: ArtPalette): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new Error(`a picture needs a positive whole size, not ${width}×${height}`);
  return cached(`lib:${key}:${width}x${height}:${paletteKey(p)}`, () => {
    const rnd = new Prng(hashString(key));
    const w = width;
    const h = height;
    const m = Math.min(w, h);
    const art = new Art(w, h);
    switch (hashString(key) % 4) {
      case 0: {
        // Sunrise: a sky gradient, a glowing sun, layered hills.
        art.fill(linear(0, 0, 0, h, lighter(p.accent, 0.55), lighter(p.primary, 0.25)));
        const sx = w * (0.3 + rnd.next() * 0.4);
        art.circle(sx, h * 0.55, m * 0.5, radial(sx, h * 0.55, m * 0.5, p.light, p.accent), 0.35);
        art.circle(sx, h * 0.55, m * 0.22, radial(sx, h * 0.5, m * 0.22, p.light, p.accent));
        art.circle(
          w * 0.15,
          h * 1.25,
          h * 0.6,
          linear(0, h * 0.6, 0, h, p.primary, darker(p.primary, 0.4)),
        );
        art.circle(
          w * 0.85,
          h * 1.35,
          h * 0.7,
          linear(0, h * 0.6, 0, h, lighter(p.primary, 0.2), p.primary),
        );
        art.roundRect(-10, h * 0.9, w + 10, h + 10, 0, darker(p.primary, 0.5), 0.9);
        break;
      }
      case 1: {
        // A product on a card: soft ground, a rounded card, a cup-like mark, stripes on top.
        art.fill(
          radial(
            w * 0.5,
            h * 0.4,
            Math.max(w, h) * 0.8,
            lighter(p.light, 0.2),
            lighter(p.accent, 0.6),
          ),
        );
        const cw = w * 0.56;
        const ch = h * 0.62;
        const cx0 = (w - cw) / 2;
        const cy0 = (h - ch) / 2 + h * 0.04;
        art.roundRect(cx0 + 8, cy0 + 12, cx0 + cw + 8, cy0 + ch + 12, m * 0.06, [0, 0, 0], 0.12);
        art.roundRect(
          cx0,
          cy0,
          cx0 + cw,
          cy0 + ch,
          m * 0.06,
          linear(cx0, cy0, cx0 + cw, cy0 + ch, p.primary, darker(p.primary, 0.35)),
        );
        art.stripes(-30, m * 0.12, m * 0.03, p.accent, 0.18);
        art.circle(
          w / 2,
          h / 2 + h * 0.04,
          m * 0.2,
          radial(w / 2 - m * 0.05, h / 2 - m * 0.03, m * 0.24, lighter(p.accent, 0.4), p.accent),
        );
        art.ring(w / 2, h / 2 + h * 0.04, m * 0.2, m * 0.025, p.light);
        break;
      }
      case 2: {
        // A poster of circles on a diagonal gradient.
        art.fill(linear(0, 0, w, h, p.primary, darker(p.accent, 0.2)));
        const cols = 4 + rnd.int(0, 2);
        const step = w / cols;
        const rows = Math.ceil(h / step);
        for (let i = 0; i < cols; i++) {
          for (let j = 0; j < rows; j++) {
            const r = step * (0.18 + 0.22 * ((i + j) % 3) * 0.5);
            art.circle(
              step * (i + 0.5),
              step * (j + 0.5),
              r,
              (i + j) % 2 ? p.light : p.accent,
              0.35 + 0.15 * ((i * j) % 4),
            );
          }
        }
        art.roundRect(w * 0.08, h * 0.72, w * 0.62, h * 0.8, h * 0.04, p.light, 0.9);
        art.roundRect(w * 0.08, h * 0.84, w * 0.42, h * 0.88, h * 0.02, p.light, 0.6);
        break;
      }
      default: {
        // Bands and a frame: wide diagonal stripes, a framed panel, a bold dot.
        art.fill(linear(0, 0, w, 0, darker(p.primary, 0.2), p.primary));
        art.stripes(45, m * 0.28, m * 0.12, p.accent, 0.55);
        const pad = m * 0.14;
        art.roundRect(pad, pad, w - pad, h - pad, m * 0.04, p.light, 0.92);
        art.ring(w / 2, h / 2, m * 0.24, m * 0.05, linear(0, 0, w, h, p.accent, p.primary));
        art.circle(w / 2, h / 2, m * 0.12, p.primary);
        break;
      }
    }
    return art.png();
  });
}

/**
 * A brand's logo: a badge in its accent with a geometric mark in its primary and light
 * colours, the badge's shape and the mark chosen by the name, so that two brands' logos
 * differ in shape as well as colour. Square, `size` pixels, the ground transparent.
 */
export function logoArt(name: string, p: ArtPalette, size = 256): Buffer {
  return cached(`logo:${name}:${size}:${paletteKey(p)}`, () => {
    const h = hashString(name.toLowerCase());
    const s = size;
    const c = s / 2;
    const art = new Art(s, s);
    const badge = linear(0, 0, s, s, lighter(p.accent, 0.15), darker(p.accent, 0.2));
    const shape = h % 3;
    if (shape === 0) art.circle(c, c, s * 0.47, badge);
    else if (shape === 1) art.roundRect(s * 0.04, s * 0.04, s * 0.96, s * 0.96, s * 0.22, badge);
    else
      art.polygon(
        [
          [c, s * 0.02],
          [s * 0.98, c],
          [c, s * 0.98],
          [s * 0.02, c],
        ],
        badge,
      );
    const ink = p.primary;
    switch ((h >>> 3) % 5) {
      case 0: // a ring with a bar through it
        art.ring(c, c, s * 0.22, s * 0.07, ink);
        art.roundRect(s * 0.26, c - s * 0.04, s * 0.74, c + s * 0.04, s * 0.04, p.light);
        break;
      case 1: // peaks
        art.polygon(
          [
            [s * 0.22, s * 0.7],
            [s * 0.42, s * 0.3],
            [s * 0.62, s * 0.7],
          ],
          ink,
        );
        art.polygon(
          [
            [s * 0.42, s * 0.7],
            [s * 0.6, s * 0.4],
            [s * 0.78, s * 0.7],
          ],
          p.light,
        );
        break;
      case 2: // stacked bars
        for (let i = 0; i < 3; i++)
          art.roundRect(
            s * (0.28 + i * 0.04),
            s * (0.3 + i * 0.15),
            s * (0.72 - i * 0.04),
            s * (0.4 + i * 0.15),
            s * 0.05,
            i === 1 ? p.light : ink,
          );
        break;
      case 3: // a sun on a horizon: a disc in a ring, a bar below
        art.circle(c, c - s * 0.04, s * 0.11, p.light);
        art.ring(c, c - s * 0.04, s * 0.2, s * 0.05, ink);
        art.roundRect(s * 0.26, s * 0.66, s * 0.74, s * 0.72, s * 0.03, ink);
        break;
      default: // a quartered diamond
        art.polygon(
          [
            [c, s * 0.24],
            [s * 0.76, c],
            [c, s * 0.76],
            [s * 0.24, c],
          ],
          ink,
        );
        art.polygon(
          [
            [c, s * 0.36],
            [s * 0.64, c],
            [c, s * 0.64],
            [s * 0.36, c],
          ],
          p.light,
        );
        break;
    }
    return art.png(true);
  });
}
