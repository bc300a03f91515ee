/**
 * Partner branding (spec §1): a partner company name, tied to the primary account's email,
 * that contains the word wordpress, flock or titan changes the theme class.
 */
export const PARTNER_THEMES = ['wordpress', 'flock', 'titan'] as const;
export type PartnerTheme = (typeof PARTNER_THEMES)[number];

/** The partner theme a company name asks for, or null; the first word found wins. */
export function partnerThemeOf(companyName: string | null | undefined): PartnerTheme | null {
  if (!companyName) return null;
  const name = companyName.toLowerCase();
  return PARTNER_THEMES.find((word) => name.includes(word)) ?? null;
}

/** The class put on the document element for a partner theme. */
export function partnerThemeClass(theme: PartnerTheme): string {
  return `theme-partner-${theme}`;
}
