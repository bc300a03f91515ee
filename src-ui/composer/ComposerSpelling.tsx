/**
 * Tern's spell checker in the composer (issue 14 point 5), shown only when the account's
 * plan and preference allow it (the composer renders it then; otherwise no worker starts):
 * the language of this message (English / Deutsch, the preference's by default), the marks
 * (use-spelling.ts), and the suggestion menu on right-click of a marked word or Ctrl+. with
 * the caret in it (Ctrl+. is free: the mailbox's keys take no modifier, the composer's are
 * Ctrl+Enter, Ctrl+K, Ctrl+Shift+D/Y). Elsewhere the browser's own context menu stays.
 * "Add to dictionary" puts the word in the `spellWords` preference, which roams.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { TernError } from '../../shared/errors';
import { SPELL_WORDS_MAX, spellLanguageFor, withSpellWord, type SpellLanguage } from '../../shared/spelling';
import { errorText, useLocale, useT } from '../kit/i18n';
import { useOptionalMailActions } from '../state/actions-context';
import { accountSettingsAtom } from '../state/settings-atoms';
import { useFeature } from '../state/use-feature';
import { misspeltAt } from '../spell/spell-highlight';
import type { ComposerNoticeText } from './ComposerNotice';
import type { RichTextEditorHandle } from './RichTextEditor';
import { SPELL_CSS } from './spell-styles';
import { SpellMenu } from './SpellMenu';
import { useSpelling } from './use-spelling';

interface OpenMenu {
  readonly range: Range;
  readonly word: string;
  readonly at: { readonly x: number; readonly y: number };
  readonly suggestions: readonly string[] | null;
}

const NO_WORDS: readonly string[] = [];

/** The text position under a point of the window (Chromium has both calls; Firefox only the first). */
function pointAt(x: number, y: number): { node: Node; offset: number } | null {
  const doc = document as Document & { caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null };
  const position = doc.caretPositionFromPoint?.(x, y);
  if (position) return { node: position.offsetNode, offset: position.offset };
  const range = document.caretRangeFromPoint?.(x, y);
  return range ? { node: range.startContainer, offset: range.startOffset } : null;
}

export function ComposerSpelling(props: { editor: RefObject<RichTextEditorHandle | null>; accountId: string; bodyVersion: number; onNotice: (notice: ComposerNoticeText) => void }) {
  const { editor, accountId } = props;
  const t = useT();
  const locale = useLocale();
  const actions = useOptionalMailActions();
  const { requestPaywall } = useFeature('spellChecker', accountId);
  const preferences = useAtomValue(accountSettingsAtom)?.[accountId]?.preferences;
  const words = preferences?.spellWords ?? NO_WORDS;
  const [chosen, setChosen] = useState<SpellLanguage | null>(null);
  const language = chosen ?? spellLanguageFor(preferences?.spellLanguage ?? 'auto', locale);
  const owner = useRef({}).current;
  const [menu, setMenu] = useState<OpenMenu | null>(null);

  useSpelling({ editor, language, words, bodyVersion: props.bodyVersion, owner });

  const openAt = (range: Range, at: { x: number; y: number }) => {
    const word = range.toString().replace(/’/g, "'");
    setMenu({ range, word, at, suggestions: null });
    const found = import('../spell/spell-client').then(async ({ spellWorker }) => (await spellWorker()?.suggest(language, word)) ?? []);
    // No answer (the worker failed): "No suggestions", and "Add to dictionary" still works.
    void found
      .catch(() => [])
      .then((suggestions) => setMenu((current) => (current?.range === range ? { ...current, suggestions } : current)));
  };
  const openRef = useRef(openAt);
  openRef.current = openAt;

  // On the editor's element itself: right-click and Ctrl+. over a mark; anything else is the browser's.
  useEffect(() => {
    const root = editor.current?.root();
    if (!root) return;
    const onContextMenu = (event: MouseEvent) => {
      const point = pointAt(event.clientX, event.clientY);
      const range = point && misspeltAt(owner, point.node, point.offset);
      if (!range) return;
      event.preventDefault();
      openRef.current(range, { x: event.clientX, y: event.clientY });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key !== '.' || event.shiftKey || event.altKey) return;
      const selection = window.getSelection();
      const range = selection?.anchorNode ? misspeltAt(owner, selection.anchorNode, selection.anchorOffset) : null;
      if (!range) return;
      event.preventDefault();
      const box = range.getBoundingClientRect();
      openRef.current(range, { x: box.left, y: box.bottom + 4 });
    };
    root.addEventListener('contextmenu', onContextMenu);
    root.addEventListener('keydown', onKeyDown);
    return () => {
      root.removeEventListener('contextmenu', onContextMenu);
      root.removeEventListener('keydown', onKeyDown);
    };
  }, [editor, owner]);

  const close = (refocus: boolean) => {
    setMenu(null);
    if (refocus) editor.current?.focus();
  };
  const pick = (suggestion: string) => {
    if (!menu) return;
    setMenu(null);
    editor.current?.replaceRange(menu.range, suggestion);
  };
  const add = async () => {
    if (!menu || !actions) return;
    const { word } = menu;
    close(true);
    const next = withSpellWord(words, word);
    if (!next) {
      props.onNotice({ kind: 'error', text: t('spelling.notAdded', { word, reason: t('spelling.listFull', { limit: SPELL_WORDS_MAX }) }) });
      return;
    }
    try {
      await actions.updatePreferences(accountId, { spellWords: next });
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      else props.onNotice({ kind: 'error', text: t('spelling.notAdded', { word, reason: errorText(t, error) }) });
    }
  };

  return (
    <>
      <style href="tern-spell" precedence="tern">
        {SPELL_CSS}
      </style>
      <select className="tern-spell-language" aria-label={t('spelling.language')} title={t('spelling.keyHint')} value={language} onChange={(event) => setChosen(event.target.value as SpellLanguage)}>
        <option value="en">{t('spelling.english')}</option>
        <option value="de">{t('spelling.german')}</option>
      </select>
      {menu && (
        <SpellMenu
          word={menu.word}
          suggestions={menu.suggestions}
          at={menu.at}
          onPick={pick}
          {...(actions ? { onAdd: () => void add() } : {})}
          onClose={() => close(true)}
        />
      )}
    </>
  );
}
