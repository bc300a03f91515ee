// Attachment payloads for seeded mail, built once per process.
//
// The files are real (a PDF that viewers open, PNGs that decoders accept, so
// previews and thumbnails in the client can be tested) and their base64 is
// precomputed once: re-encoding per message would dominate a 100k seed.

import { deflateSync } from 'node:zlib';

export interface Asset {
  filename: string;
  mime: string;
  bytes: Buffer;
  /** base64 in 76-character lines, each ending in "\n". */
  b64: string;
}

/** base64 with 76-character lines (RFC 2045 limit), LF line ends. */
export function base64Lines(buf: Buffer): string {
  const s = buf.toString('base64');
  let out = '';
  for (let i = 0; i < s.length; i += 76) out += s.slice(i, i + 76) + '\n';
  return out;
}

function asset(filename: string, mime: string, bytes: Buffer): Asset {
  return { filename, mime, bytes, b64: base64Lines(bytes) };
}

// ---------------------------------------------------------------- PDF

/** A one-page PDF with correct xref offsets (so strict parsers accept it). */
function buildPdf(lines: readonly string[]): Buffer {
  let content = 'BT /F1 20 Tf 72 770 Td (' + (lines[0] ?? '') + ') Tj ET\n';
  for (let i = 1; i < lines.length; i++) {
    content += 'BT /F1 12 Tf 72 ' + (740 - i * 18) + ' Td (' + (lines[i] ?? '') + ') Tj ET\n';
  }
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '<< /Length ' + content.length + ' >>\nstream\n' + content + 'endstream',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Title (Invoice) /Producer (Tern Mail test seeder) >>',
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += i + 1 + ' 0 obj\n' + body + '\nendobj\n';
  });
  const xref = pdf.length;
  pdf += 'xref\n0 ' + (objects.length + 1) + '\n0000000000 65535 f \n';
  for (const off of offsets) pdf += String(off).padStart(10, '0') + ' 00000 n \n';
  pdf += 'trailer\n<< /Size ' + (objects.length + 1) + ' /Root 1 0 R /Info 6 0 R >>\nstartxref\n' + xref + '\n%%EOF\n';
  return Buffer.from(pdf, 'latin1'); // every char above is < 0x100: 1 char = 1 byte
}

// ---------------------------------------------------------------- PNG

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** 8-bit RGB PNG from a pixel function. */
function buildPng(w: number, h: number, px: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc(h * (1 + w * 3));
  let o = 0;
  for (let y = 0; y < h; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const [r, g, b] = px(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // compression, filter, interlace = 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Fixed xorshift noise: keeps the PNGs from compressing to a few bytes (the
 * client treats tiny images as tracking pixels; these must stay > 512 bytes). */
function noise(seed: number, mask: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s & mask;
  };
}

function buildLogo(): Buffer {
  const n = noise(0x7e27, 0x03);
  // A teal disc on a soft gradient (a "company logo" for signatures).
  return buildPng(40, 40, (x, y) => {
    const d = (x - 20) * (x - 20) + (y - 20) * (y - 20);
    if (d < 196) return [16 + n(), 128 + n(), 128 + n()];
    return [200 + n(), 210 + n(), 225 + n()];
  });
}

function buildChart(): Buffer {
  const n = noise(0xc4a7, 0x01);
  const bars = [22, 35, 30, 48, 41, 56];
  return buildPng(120, 72, (x, y) => {
    const i = Math.floor(x / 20);
    const top = 72 - (bars[i] ?? 0);
    if (x % 20 >= 4 && x % 20 < 16 && y >= top) return [60 + n(), 110 + n(), 200 + n()];
    return [245 - n(), 245 - n(), 245 - n()];
  });
}

// ---------------------------------------------------------------- exports

export const PDF_INVOICE: Asset = asset(
  'invoice-2026-0042.pdf',
  'application/pdf',
  buildPdf(['Invoice 2026-0042', 'Acme Example Corp.', 'Consulting services: 12 h', 'Total due: EUR 1,440.00', 'Payment within 30 days.']),
);

export const PNG_LOGO: Asset = asset('logo.png', 'image/png', buildLogo());
export const PNG_CHART: Asset = asset('q3-chart.png', 'image/png', buildChart());

export const CSV_BUDGET: Asset = asset(
  'budget-2026.csv',
  'text/csv',
  Buffer.from(
    'quarter,team,planned,actual\nQ1,Platform,120000,114500\nQ1,Mail,80000,83100\nQ2,Platform,125000,119800\n' +
      'Q2,Mail,82000,80250\nQ3,Platform,130000,127300\nQ3,Mail,85000,88900\nQ4,Platform,130000,0\nQ4,Mail,85000,0\n',
    'utf8',
  ),
);
