/**
 * The message body: a contentEditable region with a small formatting toolbar (bold,
 * italic, underline, bulleted and numbered lists, link).
 *
 * Formatting uses `document.execCommand`. It is deprecated in name only: every browser
 * ships it, it keeps the native undo stack, and the alternative is a rich-text framework
 * far bigger than this composer. The editor is uncontrolled (React never rewrites its
 * DOM, which would lose the caret); the composer reads the HTML on each input.
 *
 * What enters the editor from outside (the initial body, a paste) is sanitised first
 * (editor-html.ts): the editor lives in the app's own page.
 */
import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { Icon, type IconName } from '../kit/icons';
import { BODY_CLASS, prepareEditorHtml } from './editor-html';
import { useT } from '../kit/i18n';
import type { MessageId } from '../../shared/strings';

export interface RichTextEditorHandle {
  /** The editor's current HTML (not yet prepared for sending). */
  html(): string;
  focus(): void;
  /** Puts the caret at the start (replies are written above the quote). */
  focusStart(): void;
  /** The editable element (the signature is swapped in it when the From changes); null before it mounts. */
  root(): HTMLElement | null;
  /**
   * Puts untrusted HTML (a template, a pasted block) at the caret — or where it last was,
   * else at the start — sanitised like a paste, in the native undo stack.
   */
  insertHtml(html: string): void;
  /** Puts text (an emoji) at the caret, as typing would. */
  insertText(text: string): void;
  /** Replaces the text of a range of the body (a spelling suggestion), in the native undo stack. */
  replaceRange(range: Range, text: string): void;
}

export interface RichTextEditorProps {
  /** Untrusted initial HTML (a draft or a quote); sanitised before it is shown. */
  readonly initialHtml: string;
  readonly onInput: () => void;
  /** Files pasted into the body become attachments. */
  readonly onPasteFiles?: (files: File[]) => void;
  readonly handleRef?: Ref<RichTextEditorHandle>;
  readonly label?: string;
  /** The browser checks spelling as you type (the account's preference and plan; on by default). */
  readonly spellCheck?: boolean;
}

type Format = 'bold' | 'italic' | 'underline' | 'insertUnorderedList' | 'insertOrderedList';

const TOOLS: readonly { format: Format | 'link'; label: MessageId; shortcut?: string; icon: IconName }[] = [
  { format: 'bold', label: 'composer.bold', shortcut: 'Ctrl+B', icon: 'bold' },
  { format: 'italic', label: 'composer.italic', shortcut: 'Ctrl+I', icon: 'italic' },
  { format: 'underline', label: 'composer.underline', shortcut: 'Ctrl+U', icon: 'underline' },
  { format: 'insertUnorderedList', label: 'composer.bulletedList', icon: 'list' },
  { format: 'insertOrderedList', label: 'composer.numberedList', icon: 'numberedList' },
  { format: 'link', label: 'composer.link', shortcut: 'Ctrl+K', icon: 'link' },
];

const canExec = () => typeof document.execCommand === 'function';

function exec(command: string, value?: string): void {
  if (canExec()) document.execCommand(command, false, value);
}

function queryState(format: Format): boolean {
  try {
    return typeof document.queryCommandState === 'function' && document.queryCommandState(format);
  } catch {
    return false;
  }
}

/** A link address a person typed: web and mail links only; "example.com" means https. */
export function normaliseLinkAddress(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return null;
  if (/^(?:https?:\/\/|mailto:)/i.test(value)) return value;
  if (/^[a-z][a-z\d+.-]*:/i.test(value)) return null; // javascript:, data:, file: …
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return `mailto:${value}`;
  return `https://${value}`;
}

export function RichTextEditor(props: RichTextEditorProps) {
  const t = useT();
  const editorRef = useRef<HTMLDivElement>(null);
  const savedRange = useRef<Range | null>(null);
  const [active, setActive] = useState<ReadonlySet<Format>>(new Set());
  const [focusIndex, setFocusIndex] = useState(0);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkValue, setLinkValue] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const linkInputId = useId();
  const toolbarRef = useRef<HTMLDivElement>(null);

  useImperativeHandle(props.handleRef, () => ({
    html: () => editorRef.current?.innerHTML ?? '',
    root: () => editorRef.current,
    focus: () => editorRef.current?.focus(),
    focusStart,
    insertHtml: (html) => {
      atCaret();
      exec('insertHTML', prepareEditorHtml(html));
      rememberSelection();
      props.onInput();
    },
    insertText: (text) => {
      atCaret();
      exec('insertText', text);
      rememberSelection();
      props.onInput();
    },
    replaceRange: (range, text) => {
      const editor = editorRef.current;
      const selection = window.getSelection();
      if (!editor || !selection || !editor.contains(range.startContainer)) return;
      editor.focus();
      selection.removeAllRanges();
      selection.addRange(range);
      exec('insertText', text);
      rememberSelection();
      props.onInput();
    },
  }));

  function focusStart() {
    const editor = editorRef.current;
    if (!editor) return;
    editor.focus();
    const range = document.createRange();
    range.setStart(editor, 0);
    range.collapse(true);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }

  /** The caret back in the editor: where the person left it, else at the start (a menu or a dialog took the focus meanwhile). */
  function atCaret() {
    const selection = window.getSelection();
    if (selection && selection.rangeCount > 0 && editorRef.current?.contains(selection.anchorNode) && document.activeElement === editorRef.current) return;
    if (savedRange.current) restoreSelection();
    else focusStart();
  }

  // The initial body is set once; afterwards the editor owns its DOM.
  const initialHtml = useRef(props.initialHtml);
  useEffect(() => {
    if (editorRef.current) editorRef.current.innerHTML = prepareEditorHtml(initialHtml.current);
    if (canExec()) {
      try {
        document.execCommand('defaultParagraphSeparator', false, 'p');
        document.execCommand('styleWithCSS', false, 'false');
      } catch {
        // older engines: the defaults are fine
      }
    }
  }, []);

  // Toolbar buttons show the state of the selection (and of Ctrl+B/I/U typed at the caret).
  const updateActive = () => {
    const editor = editorRef.current;
    const selection = window.getSelection();
    if (!editor || !selection || selection.rangeCount === 0 || !editor.contains(selection.anchorNode)) return;
    const next = new Set<Format>();
    for (const tool of TOOLS) if (tool.format !== 'link' && queryState(tool.format)) next.add(tool.format);
    setActive((current) => (current.size === next.size && [...next].every((format) => current.has(format)) ? current : next));
  };
  const updateActiveRef = useRef(updateActive);
  updateActiveRef.current = updateActive;
  useEffect(() => {
    const update = () => updateActiveRef.current();
    document.addEventListener('selectionchange', update);
    return () => document.removeEventListener('selectionchange', update);
  }, []);

  const rememberSelection = () => {
    const selection = window.getSelection();
    const editor = editorRef.current;
    if (selection && selection.rangeCount > 0 && editor?.contains(selection.anchorNode)) savedRange.current = selection.getRangeAt(0).cloneRange();
  };

  const restoreSelection = () => {
    const editor = editorRef.current;
    editor?.focus();
    const range = savedRange.current;
    const selection = window.getSelection();
    if (range && selection) {
      selection.removeAllRanges();
      selection.addRange(range);
    }
  };

  const apply = (format: Format) => {
    restoreSelection();
    exec(format);
    rememberSelection();
    setActive((current) => {
      const next = new Set(current);
      if (queryState(format)) next.add(format);
      else next.delete(format);
      return next;
    });
    props.onInput();
  };

  const openLink = () => {
    rememberSelection();
    const anchor = (window.getSelection()?.anchorNode?.parentElement ?? null)?.closest('a');
    setLinkValue(anchor?.getAttribute('href') ?? '');
    setLinkError(null);
    setLinkOpen(true);
  };

  const applyLink = () => {
    const href = normaliseLinkAddress(linkValue);
    if (href === null) {
      setLinkError('Enter a web address (https://…) or an email address.');
      return;
    }
    restoreSelection();
    const selection = window.getSelection();
    if (selection && selection.isCollapsed) exec('insertText', linkValue.trim());
    if (selection && selection.isCollapsed) {
      // Select the text just inserted so it becomes the link.
      const range = selection.getRangeAt(0);
      const node = range.startContainer;
      const end = range.startOffset;
      const start = Math.max(0, end - linkValue.trim().length);
      const select = document.createRange();
      select.setStart(node, start);
      select.setEnd(node, end);
      selection.removeAllRanges();
      selection.addRange(select);
    }
    exec('createLink', href);
    setLinkOpen(false);
    props.onInput();
  };

  const removeLink = () => {
    restoreSelection();
    exec('unlink');
    setLinkOpen(false);
    props.onInput();
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      openLink();
    }
  };

  // ARIA toolbar: one tab stop, arrow keys move between the buttons.
  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const jump = event.key === 'Home' ? 0 : event.key === 'End' ? TOOLS.length - 1 : null;
    if (delta === 0 && jump === null) return;
    event.preventDefault();
    const next = jump ?? (focusIndex + delta + TOOLS.length) % TOOLS.length;
    setFocusIndex(next);
    toolbarRef.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  return (
    <div className="tern-editor-wrap">
      {/* The body comes first in the DOM so Tab from Subject lands in it, as in Gmail; the
          toolbar (one tab stop) follows it. CSS order keeps the toolbar drawn above. */}
      <div
        ref={editorRef}
        className={`tern-editor ${BODY_CLASS}`}
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label={props.label ?? t('composer.messageBody')}
        tabIndex={0}
        spellCheck={props.spellCheck ?? true}
        onInput={props.onInput}
        onKeyDown={onEditorKeyDown}
        onKeyUp={() => {
          rememberSelection();
          updateActive();
        }}
        onMouseUp={rememberSelection}
        onBlur={rememberSelection}
        onPaste={(event) => {
          const files = Array.from(event.clipboardData.files);
          if (files.length > 0 && props.onPasteFiles) {
            event.preventDefault();
            props.onPasteFiles(files);
            return;
          }
          const html = event.clipboardData.getData('text/html');
          event.preventDefault();
          if (html) exec('insertHTML', prepareEditorHtml(html));
          else exec('insertText', event.clipboardData.getData('text/plain'));
          props.onInput();
        }}
        onDrop={(event) => {
          // Files dropped on the body are attachments (the composer's drop zone takes them).
          if (event.dataTransfer.types.includes('Files')) event.preventDefault();
        }}
      />
      <div ref={toolbarRef} className="tern-toolbar" role="toolbar" aria-label={t('composer.formatting')} onKeyDown={onToolbarKeyDown}>
        {TOOLS.map((tool, index) => {
          const isLink = tool.format === 'link';
          return (
            <button
              key={tool.format}
              type="button"
              className="tern-icon-button"
              aria-label={t(tool.label)}
              title={tool.shortcut ? `${t(tool.label)} (${tool.shortcut})` : t(tool.label)}
              aria-pressed={isLink ? undefined : active.has(tool.format as Format)}
              aria-expanded={isLink ? linkOpen : undefined}
              tabIndex={index === focusIndex ? 0 : -1}
              onMouseDown={(event) => {
                event.preventDefault(); // keep the editor's selection
                rememberSelection();
              }}
              onFocus={() => setFocusIndex(index)}
              onClick={() => (isLink ? openLink() : apply(tool.format as Format))}
            >
              <Icon name={tool.icon} />
            </button>
          );
        })}
      </div>
      {linkOpen && (
        <div className="tern-link-popover" role="group" aria-label={t('composer.insertLink')}>
          <label htmlFor={linkInputId}>{t('composer.linkAddress')}</label>
          <input
            id={linkInputId}
            type="url"
            value={linkValue}
            autoFocus
            placeholder={t('composer.httpsExampleCom')}
            aria-invalid={linkError !== null || undefined}
            onChange={(event) => setLinkValue(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyLink();
              } else if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                setLinkOpen(false);
                restoreSelection();
              }
            }}
          />
          <button type="button" className="tern-button tern-button-primary" onClick={applyLink}>
            {t('composer.apply')}
          </button>
          <button type="button" className="tern-button" onClick={removeLink}>
            {t('composer.removeLink')}
          </button>
          {linkError && (
            <p className="tern-field-error" role="alert">
              {linkError}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
