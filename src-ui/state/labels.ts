/** Each account's labels as the engine's settings carry them (shared/labels.ts), by name, for menus, rows and the sidebar. */
import { atom, useAtomValue } from 'jotai';
import { sortLabels, type Label } from '../../shared/labels';
import { accountSettingsAtom } from './settings-atoms';

const NONE: readonly Label[] = [];

/** accountId → its labels by name (the same array until the table changes, so rows re-render only then). */
export const labelsByAccountAtom = atom<Readonly<Record<string, readonly Label[]>>>((get) => {
  const all = get(accountSettingsAtom) ?? {};
  return Object.fromEntries(Object.entries(all).map(([accountId, settings]) => [accountId, sortLabels(settings.labels ?? [])]));
});

export function useAccountLabels(accountId: string | null | undefined): readonly Label[] {
  const all = useAtomValue(labelsByAccountAtom);
  return (accountId ? all[accountId] : undefined) ?? NONE;
}

/** A label's colour as CSS, for a swatch outside a `data-label-color` element (menus). */
export const labelSwatch = (label: Pick<Label, 'color'>) => `var(--label-${label.color})`;

/**
 * Every account's label names, for the search box's `label:` check (a name any account has
 * may be searched); undefined until the settings are read, so no name is called unknown early.
 */
export const labelNamesAtom = atom<readonly string[] | undefined>((get) =>
  get(accountSettingsAtom) ? [...new Set(Object.values(get(labelsByAccountAtom)).flatMap((labels) => labels.map((label) => label.name)))] : undefined,
);
