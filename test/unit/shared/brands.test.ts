import { describe, expect, test } from 'vitest';
import { BRAND_IDS, BRANDS, brandById, DEFAULT_BRAND } from '../../../shared/brands';

describe('brand table', () => {
  test('has the two brands of the spec, tern by default', () => {
    expect(BRAND_IDS).toEqual(['tern', 'kite']);
    expect(DEFAULT_BRAND).toBe('tern');
    expect(brandById('kite').name).toBe('Kite Mail');
  });

  test('each brand has a distinct name, accent and self-contained logo', () => {
    const brands = Object.values(BRANDS);
    expect(new Set(brands.map((b) => b.name)).size).toBe(brands.length);
    expect(new Set(brands.map((b) => b.accent)).size).toBe(brands.length);
    for (const brand of brands) {
      expect(brand.accent).toMatch(/^#[0-9a-f]{6}$/i);
      expect(brand.logoSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(brand.logoSvg).not.toMatch(/href|url\(/); // no external references
    }
  });

  test('an unknown brand is an error naming the known ones', () => {
    expect(() => brandById('falcon')).toThrow('Unknown brand "falcon". Known brands: tern, kite.');
  });
});
