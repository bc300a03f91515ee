/**
 * The two brands the product ships under, chosen at build time with `--brand=<id>`
 * (spec §1: "two brands switched by a build flag"). Everything brand-specific lives here
 * so a third brand is one more row, not a search through the code.
 */
export interface Brand {
  /** Build-flag id. */
  readonly id: BrandId;
  /** Product name shown in the shell and the page title. */
  readonly name: string;
  /** Accent colour (CSS colour) for primary actions and focus rings. */
  readonly accent: string;
  /** Text colour that stays readable on the accent. */
  readonly onAccent: string;
  /** The logo as a self-contained SVG document (no external references). */
  readonly logoSvg: string;
  /**
   * The logo's glyph as plain shapes in its 32×32 box, for the PNG icons build.mjs draws
   * (build-icons.mjs: an installed app needs PNGs, and a maskable one full-bleed): the
   * background shape in the accent, the mark in `onAccent` on top.
   */
  readonly iconShapes: { readonly background: IconShape; readonly mark: readonly IconShape[] };
}

/** A filled circle or polygon in the logo's 32×32 box. */
export type IconShape = { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly r: number } | { readonly kind: 'polygon'; readonly points: readonly (readonly [number, number])[] };

export const BRAND_IDS = ['tern', 'kite'] as const;
export type BrandId = (typeof BRAND_IDS)[number];
export const DEFAULT_BRAND: BrandId = 'tern';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32">${body}</svg>`;

export const BRANDS: Readonly<Record<BrandId, Brand>> = {
  tern: {
    id: 'tern',
    name: 'Tern Mail',
    accent: '#0b7285',
    onAccent: '#ffffff',
    // A tern's forked tail and swept wings over a circle.
    logoSvg: svg(
      '<circle cx="16" cy="16" r="15" fill="#0b7285"/>' +
        '<path d="M5 14 L16 18 L27 9 L19 19 L22 25 L16 20 L10 24 L13 18 Z" fill="#ffffff"/>',
    ),
    iconShapes: {
      background: { kind: 'circle', cx: 16, cy: 16, r: 15 },
      mark: [{ kind: 'polygon', points: [[5, 14], [16, 18], [27, 9], [19, 19], [22, 25], [16, 20], [10, 24], [13, 18]] }],
    },
  },
  kite: {
    id: 'kite',
    name: 'Kite Mail',
    accent: '#c2410c',
    onAccent: '#ffffff',
    // A diamond kite with its tail.
    logoSvg: svg(
      '<path d="M16 2 L26 13 L16 24 L6 13 Z" fill="#c2410c"/>' +
        '<path d="M16 2 L16 24 M6 13 L26 13" stroke="#ffffff" stroke-width="1.5"/>' +
        '<path d="M16 24 Q13 27 16 29 Q19 31 16 32" stroke="#c2410c" stroke-width="1.5" fill="none"/>',
    ),
    iconShapes: {
      background: { kind: 'polygon', points: [[16, 2], [26, 13], [16, 24], [6, 13]] },
      // The cross of the kite's spars (its 1.5 px strokes as thin bars).
      mark: [
        { kind: 'polygon', points: [[15.25, 2], [16.75, 2], [16.75, 24], [15.25, 24]] },
        { kind: 'polygon', points: [[6, 12.25], [26, 12.25], [26, 13.75], [6, 13.75]] },
      ],
    },
  },
};

export function isBrandId(value: string): value is BrandId {
  return (BRAND_IDS as readonly string[]).includes(value);
}

/** Looks a brand up by its build-flag id; an unknown id is a build error, never a silent default. */
export function brandById(id: string): Brand {
  if (!isBrandId(id)) {
    throw new Error(`Unknown brand "${id}". Known brands: ${BRAND_IDS.join(', ')}.`);
  }
  return BRANDS[id];
}
