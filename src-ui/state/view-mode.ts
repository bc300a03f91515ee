/**
 * The four views of the settings dropdown (spec §2: single thread, conversation, split,
 * list) and what each means for the layout. The reading pane itself is the conversation
 * view's; the layout only decides where it goes and how tall list rows are.
 */
export const VIEW_MODES = ['conversation', 'split', 'single', 'list'] as const;
export type ViewMode = (typeof VIEW_MODES)[number];

export const VIEW_STORAGE_KEY = 'tern.view';
export const DEFAULT_VIEW_MODE: ViewMode = 'conversation';

export interface ViewLayout {
  /** Where an open thread shows: beside the list, below it, or instead of it. */
  readonly readingPane: 'right' | 'bottom' | 'replace';
  /** Fixed row height of the virtual list, in CSS pixels. */
  readonly rowHeight: number;
  /** Three lines (sender, subject, snippet) or one. */
  readonly rowStyle: 'stacked' | 'line';
  readonly showAvatars: boolean;
}

export const VIEW_MODE_INFO: Readonly<Record<ViewMode, { readonly label: string; readonly description: string; readonly layout: ViewLayout }>> = {
  conversation: {
    label: 'Conversation',
    description: 'List on the left, the whole conversation on the right',
    layout: { readingPane: 'right', rowHeight: 84, rowStyle: 'stacked', showAvatars: true },
  },
  split: {
    label: 'Split',
    description: 'List on top, the open conversation below',
    layout: { readingPane: 'bottom', rowHeight: 44, rowStyle: 'line', showAvatars: true },
  },
  single: {
    label: 'Single thread',
    description: 'Opening a conversation shows it in place of the list',
    layout: { readingPane: 'replace', rowHeight: 48, rowStyle: 'line', showAvatars: true },
  },
  list: {
    label: 'List',
    description: 'A dense list; opening a conversation shows it in place of the list',
    layout: { readingPane: 'replace', rowHeight: 36, rowStyle: 'line', showAvatars: false },
  },
};

export function parseViewMode(value: unknown): ViewMode {
  return typeof value === 'string' && (VIEW_MODES as readonly string[]).includes(value) ? (value as ViewMode) : DEFAULT_VIEW_MODE;
}

export function readViewMode(storage: Pick<Storage, 'getItem'> | undefined): ViewMode {
  try {
    return parseViewMode(storage?.getItem(VIEW_STORAGE_KEY));
  } catch {
    return DEFAULT_VIEW_MODE;
  }
}
