/**
 * The PNG icons of an installed app (issue 20), drawn from the brand's shapes
 * (shared/brands.ts `iconShapes`) with no image library: a few filled circles and polygons,
 * 4×4 supersampled, written as 8-bit RGBA PNGs with node:zlib.
 *
 *   icon-<size>.png           the logo on a transparent square (purpose "any")
 *   icon-maskable-512.png     full-bleed accent with the mark inside the safe zone (purpose "maskable")
 */
import { deflateSync } from 'node:zlib';

const SAMPLES = 4;

function parseColour(hex) {
  const value = hex.replace('#', '');
  return [0, 2, 4].map((at) => parseInt(value.slice(at, at + 2), 16));
}

function inside(shape, x, y) {
  if (shape.kind === 'circle') return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2;
  // Even-odd ray casting.
  let hit = false;
  const points = shape.points;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i];
    const [xj, yj] = points[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

/**
 * RGBA pixels of the icon: `layers` are [shape, colour] painted in order over `fill` (null:
 * transparent); the 32×32 box is scaled by `scale` and centred.
 */
function paint(size, fill, layers, scale) {
  const pixels = new Uint8Array(size * size * 4);
  const unit = (size * scale) / 32;
  const offset = (size - 32 * unit) / 2;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = fill ? [...fill, 1] : [0, 0, 0, 0];
      for (const [shape, colour] of layers) {
        let covered = 0;
        for (let sy = 0; sy < SAMPLES; sy++) {
          for (let sx = 0; sx < SAMPLES; sx++) {
            const x = (px + (sx + 0.5) / SAMPLES - offset) / unit;
            const y = (py + (sy + 0.5) / SAMPLES - offset) / unit;
            if (inside(shape, x, y)) covered++;
          }
        }
        const k = covered / (SAMPLES * SAMPLES);
        if (k === 0) continue;
        // "Over" compositing, straight alpha.
        const outA = k + a * (1 - k);
        [r, g, b] = [0, 1, 2].map((c) => (colour[c] * k + [r, g, b][c] * a * (1 - k)) / outA);
        a = outA;
      }
      const at = (py * size + px) * 4;
      pixels.set([Math.round(r), Math.round(g), Math.round(b), Math.round(a * 255)], at);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(pixels.buffer, y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The icon files of a brand: name → PNG bytes. */
export function brandIcons(brand) {
  const accent = parseColour(brand.accent);
  const onAccent = parseColour(brand.onAccent);
  const logo = [[brand.iconShapes.background, accent], ...brand.iconShapes.mark.map((shape) => [shape, onAccent])];
  const mark = brand.iconShapes.mark.map((shape) => [shape, onAccent]);
  return {
    'icon-192.png': encodePng(192, paint(192, null, logo, 1)),
    'icon-512.png': encodePng(512, paint(512, null, logo, 1)),
    // The safe zone of a maskable icon is the centre circle of 80 %: the mark at 70 % stays inside it.
    'icon-maskable-512.png': encodePng(512, paint(512, accent, mark, 0.7)),
  };
}
