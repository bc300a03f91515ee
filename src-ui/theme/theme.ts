/**
 * Light, dark or system theme (system by default, persisted per browser), and the
 * partner theme class (spec §1). Small and dependency-free: the entry applies the stored
 * choice before the first paint so a dark-theme user never sees a white flash.
 */
import { partnerThemeClass, PARTNER_THEMES, type PartnerTheme } from '../../shared/partner-theme';

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type ResolvedTheme = 'light' | 'dark';

/** localStorage key of the choice (a UI preference, not mail data). */
export const THEME_STORAGE_KEY = 'tern.theme';
export const DEFAULT_THEME_CHOICE: ThemeChoice = 'system';

export function parseThemeChoice(value: unknown): ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value) ? (value as ThemeChoice) : DEFAULT_THEME_CHOICE;
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): ResolvedTheme {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

/** Reads the stored choice; storage may be missing or throw (private mode, disabled cookies). */
export function readThemeChoice(storage: Pick<Storage, 'getItem'> | undefined): ThemeChoice {
  try {
    return parseThemeChoice(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return DEFAULT_THEME_CHOICE;
  }
}

export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Puts the theme on the document element: `data-theme` for the colours, a class for a partner. */
export function applyTheme(root: HTMLElement, theme: ResolvedTheme, partner: PartnerTheme | null = null): void {
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  for (const name of PARTNER_THEMES) root.classList.toggle(partnerThemeClass(name), name === partner);
}
