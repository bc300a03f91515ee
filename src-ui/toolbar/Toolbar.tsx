/**
 * The mailbox toolbar: the mailbox's name, select-all, and the thread commands (archive,
 * delete, spam, move, read/unread, star) acting on the selection, or on the open thread
 * when nothing is selected.
 */
import { useEffect, useRef } from 'react';
import { folderIcon, Icon, type IconName } from '../kit/icons';
import { focusListOrConversation } from '../kit/focus-list';
import { MenuButton } from '../kit/Menu';
import type { ThreadCommand } from '../state/mail-actions';
import type { MoveTarget } from './move-menu';
import type { Label } from '../../shared/labels';
import { labelSwatch } from '../state/labels';
import { useT } from '../kit/i18n';
import { IMPORTANT_KEYWORD } from '../../shared/priority-score';

export interface ToolbarProps {
  readonly title: string;
  /** Threads in the list. */
  readonly total: number;
  /** Whether `total` is the list's own (ListSnapshot.complete): during a first sync it only counts what has arrived. */
  readonly totalKnown: boolean;
  readonly selectedCount: number;
  /** Loaded rows, for select-all. */
  readonly loadedCount: number;
  /** Threads the buttons would act on (selection, else the open thread). */
  readonly targetCount: number;
  readonly anyUnread: boolean;
  readonly allStarred: boolean;
  /**
   * The priority inbox's mark (issue 17 point 4): whether every target is important (the
   * button then takes the mark away); absent where the mark is not offered.
   */
  readonly allImportant?: boolean;
  /** Folders the targets can move to (of several accounts: the ones all have, move-menu.ts); null when there are none to offer. */
  readonly moveFolders: readonly MoveTarget[] | null;
  /** In Trash, delete means delete forever. */
  readonly deleteForever: boolean;
  /** In Spam, "Report spam" becomes "Not spam" (back to the Inbox). */
  readonly inSpam: boolean;
  readonly moveOpenSignal: number;
  /** The "Move to" menu opened or closed. */
  readonly onMoveMenuOpenChange?: (open: boolean) => void;
  /**
   * "Label as": the targets' account's labels, each with whether every target has it
   * (checked: choosing takes it away) — null when the targets span accounts or there are none.
   */
  readonly labelChoices?: readonly { readonly label: Label; readonly all: boolean }[] | null;
  /** Opens "Label as" from the `l` key. */
  readonly labelOpenSignal?: number;
  readonly onManageLabels?: () => void;
  readonly onRun: (command: ThreadCommand) => void;
  readonly onSelectAll: (select: boolean) => void;
  /** In Trash and Spam: "Empty Trash now" (opens the confirmation); disabled when nothing is known to be there. */
  readonly empty?: { readonly label: string; readonly disabled: boolean; readonly onClick: () => void } | null;
}


/** One number formatter for the count: `Number#toLocaleString` builds one per call, which made every list change re-render this toolbar slowly. */

function ActionButton({ label, icon, shortcut, disabled, onClick }: { label: string; icon: IconName; shortcut: string; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={`${label} (${shortcut})`} aria-keyshortcuts={shortcut} disabled={disabled} onClick={onClick}>
      <Icon name={icon} size={19} />
    </button>
  );
}

export function Toolbar(props: ToolbarProps) {
  const t = useT();
  const checkbox = useRef<HTMLInputElement>(null);
  const none = props.targetCount === 0;
  const allSelected = props.loadedCount > 0 && props.selectedCount >= props.loadedCount;
  useEffect(() => {
    if (checkbox.current) checkbox.current.indeterminate = props.selectedCount > 0 && !allSelected;
  }, [props.selectedCount, allSelected]);

  return (
    <div className="toolbar-row">
      <h1 className="mailbox-title">{props.title}</h1>
      <div role="toolbar" aria-label={t('toolbar.conversationActions')} className="toolbar">
        <label className="select-all" title={t('toolbar.selectAllLoadedConversations')}>
          <input
            ref={checkbox}
            type="checkbox"
            checked={allSelected}
            disabled={props.loadedCount === 0}
            onChange={(event) => props.onSelectAll(event.target.checked)}
            aria-label={t('toolbar.selectAllConversations')}
          />
        </label>
        <span className="toolbar-divider" aria-hidden="true" />
        <ActionButton label={t('toolbar.archive')} icon="archive" shortcut="e" disabled={none} onClick={() => props.onRun({ kind: 'archive' })} />
        <ActionButton
          label={props.deleteForever ? t('toolbar.deleteForever') : t('toolbar.delete')}
          icon="trash"
          shortcut="#"
          disabled={none}
          onClick={() => props.onRun({ kind: props.deleteForever ? 'delete' : 'trash' })}
        />
        {props.inSpam ? (
          <ActionButton label={t('toolbar.notSpam')} icon="inbox" shortcut="!" disabled={none} onClick={() => props.onRun({ kind: 'notspam' })} />
        ) : (
          <ActionButton label={t('toolbar.reportSpam')} icon="spam" shortcut="!" disabled={none} onClick={() => props.onRun({ kind: 'spam' })} />
        )}
        <MenuButton
          label={t('toolbar.moveToFolder')}
          title={t('toolbar.moveToFolderV')}
          disabled={none || !props.moveFolders}
          openSignal={props.moveOpenSignal}
          returnFocusAfterSignal={focusListOrConversation}
          onOpenChange={props.onMoveMenuOpenChange}
          menuClassName="move-menu"
          align="start"
          entries={(props.moveFolders ?? []).map(({ folder, depth, displayName, folderIdByAccount }) => ({
            kind: 'item' as const,
            id: folder.id,
            label: displayName,
            icon: folderIcon(folder.specialUse),
            indent: depth,
            onSelect: () => props.onRun({ kind: 'move', folderId: folder.id, folderName: displayName, ...(folderIdByAccount ? { folderIdByAccount } : {}) }),
          }))}
        >
          <Icon name="move" size={19} />
        </MenuButton>
        {props.labelChoices !== undefined && (
          <MenuButton
            label={t('labels.labelAs')}
            title={t('labels.labelAsL')}
            disabled={none || !props.labelChoices}
            openSignal={props.labelOpenSignal}
            returnFocusAfterSignal={focusListOrConversation}
            onOpenChange={props.onMoveMenuOpenChange}
            menuClassName="move-menu"
            align="start"
            entries={[
              ...(props.labelChoices ?? []).map(({ label, all }) => ({
                kind: 'item' as const,
                id: `label-${label.id}`,
                label: label.name,
                swatch: labelSwatch(label),
                toggled: all,
                onSelect: () => props.onRun({ kind: 'label', keyword: label.keyword, add: !all, labelName: label.name }),
              })),
              ...((props.labelChoices?.length ?? 0) > 0 ? [{ kind: 'separator' as const, id: 'labels-separator' }] : []),
              { kind: 'item' as const, id: 'manage-labels', label: t('labels.manage'), icon: 'settings' as const, onSelect: () => props.onManageLabels?.() },
            ]}
          >
            <Icon name="label" size={19} />
          </MenuButton>
        )}
        <span className="toolbar-divider" aria-hidden="true" />
        <ActionButton
          label={props.anyUnread ? t('toolbar.markAsRead') : t('toolbar.markAsUnread')}
          icon={props.anyUnread ? 'mailOpen' : 'mail'}
          shortcut={props.anyUnread ? 'Shift+I' : 'Shift+U'}
          disabled={none}
          onClick={() => props.onRun({ kind: 'markRead', read: props.anyUnread })}
        />
        <ActionButton
          label={props.allStarred ? t('toolbar.removeStar') : t('toolbar.addStar')}
          icon={props.allStarred ? 'starFilled' : 'star'}
          shortcut="s"
          disabled={none}
          onClick={() => props.onRun({ kind: 'star', starred: !props.allStarred })}
        />
        {props.allImportant !== undefined && (
          <ActionButton
            label={props.allImportant ? t('priority.markNotImportant') : t('priority.markImportant')}
            icon={props.allImportant ? 'importantFilled' : 'important'}
            shortcut={props.allImportant ? '-' : '+'}
            disabled={none}
            onClick={() => props.onRun({ kind: 'label', keyword: IMPORTANT_KEYWORD, add: !props.allImportant })}
          />
        )}
      </div>
      <p className="toolbar-count" aria-live="polite">
        {props.selectedCount > 0
          ? t('toolbar.selected', { count: props.selectedCount })
          : props.totalKnown
            ? t('toolbar.conversations', { count: props.total })
            : ''}
      </p>
      {props.empty && (
        <button type="button" className="button button-secondary toolbar-empty" disabled={props.empty.disabled} onClick={props.empty.onClick}>
          {props.empty.label}
        </button>
      )}
    </div>
  );
}
