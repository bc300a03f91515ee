/**
 * The list of Settings pages: links (so each page has its address and opens in a new tab
 * too), one Tab stop with roving focus — Up/Down, Home/End move between them.
 */
import { Link } from '@tanstack/react-router';
import { useRef, type KeyboardEvent } from 'react';
import { Icon } from '../kit/icons';
import { useT } from '../kit/i18n';
import { BUILT_SETTINGS_PAGES } from './pages';

export function SettingsNav({ current }: { current: string | undefined }) {
  const t = useT();
  const list = useRef<HTMLUListElement>(null);
  const focusable = current && BUILT_SETTINGS_PAGES.some((page) => page.id === current) ? current : BUILT_SETTINGS_PAGES[0]!.id;
  const onKeyDown = (event: KeyboardEvent) => {
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at === -1) return;
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: links.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = links[Math.max(0, Math.min(links.length - 1, next))]!;
    for (const link of links) link.tabIndex = link === target ? 0 : -1;
    target.focus();
  };
  return (
    <nav className="settings-nav" aria-label={t('settings.navLabel')}>
      <ul ref={list} onKeyDown={onKeyDown}>
        {BUILT_SETTINGS_PAGES.map((page) => (
          <li key={page.id}>
            <Link
              to="/settings/$page"
              params={{ page: page.id }}
              className="settings-nav-link"
              tabIndex={page.id === focusable ? 0 : -1}
              aria-current={page.id === current ? 'page' : undefined}
            >
              <span>{t(page.title)}</span>
              <Icon name="chevronRight" size={16} className="settings-nav-chevron" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
