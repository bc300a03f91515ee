/**
 * An account's labels in the sidebar (issue 17 point 1), under its folders: each a link to
 * the label's list, with its colour, and a drop target — conversations dragged from the
 * list onto a label get it (thread-drag.ts). Items of the sidebar's keyboard tree like the
 * folders (data-tree-key); "Manage labels" ends them, as "New folder" ends the folders.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type DragEvent } from 'react';
import type { PublicAccount } from '../../shared/account';
import type { Label } from '../../shared/labels';
import { Icon } from '../kit/icons';
import { useT } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';
import { carriesThreads, droppedThreads, THREAD_DRAG_TYPE } from '../state/thread-list/thread-drag';

export const labelKey = (accountId: string, keyword: string) => `label:${accountId}:${keyword}`;
export const manageLabelsKey = (accountId: string) => `manage-labels:${accountId}`;

export function AccountLabels(props: { account: PublicAccount; labels: readonly Label[]; currentKeyword: string | null; tabIndexOf: (key: string) => number }) {
  const t = useT();
  const actions = useMailActions();
  const navigate = useNavigate();
  const { account, labels, currentKeyword, tabIndexOf } = props;
  const [dropOn, setDropOn] = useState<string | null>(null);
  const name = account.label || account.emailAddress;
  const over = (event: DragEvent, keyword: string) => {
    if (!carriesThreads([...event.dataTransfer.types])) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropOn(keyword);
  };
  const drop = (event: DragEvent, label: Label) => {
    setDropOn(null);
    if (!carriesThreads([...event.dataTransfer.types])) return;
    event.preventDefault();
    // Only this account's conversations can have its label.
    const threads = droppedThreads(event.dataTransfer.getData(THREAD_DRAG_TYPE)).filter((thread) => thread.accountId === account.accountId);
    if (threads.length > 0) void actions.runOnThreads({ kind: 'label', keyword: label.keyword, add: true, labelName: label.name }, threads);
  };
  return (
    <ul className="nav-list nav-labels" aria-label={t('labels.labelsOf', { account: name })}>
      {labels.map((label) => {
        const key = labelKey(account.accountId, label.keyword);
        const active = currentKeyword === label.keyword;
        return (
          <li key={label.id} className="nav-tree-row">
            <Link
              to="/mail/$accountId/label/$label"
              params={{ accountId: account.accountId, label: label.keyword }}
              search={{}}
              activeOptions={{ exact: true }}
              className={['nav-item', active && 'is-active', dropOn === label.keyword && 'is-drop-target'].filter(Boolean).join(' ')}
              aria-current={active ? 'page' : undefined}
              title={t('labels.dropHere', { name: label.name })}
              data-tree-key={key}
              data-tree-level={2}
              data-label-color={label.color}
              tabIndex={tabIndexOf(key)}
              onDragOver={(event: DragEvent) => over(event, label.keyword)}
              onDragLeave={() => setDropOn((now) => (now === label.keyword ? null : now))}
              onDrop={(event: DragEvent) => drop(event, label)}
            >
              <span className="nav-icon nav-label-dot">
                <span className="label-dot" />
              </span>
              <span className="nav-label">{label.name}</span>
            </Link>
          </li>
        );
      })}
      <li className="nav-tree-row">
        {/* A button like "New folder" (it opens a page of Settings, not a mailbox). */}
        <button
          type="button"
          className="nav-item nav-new-folder"
          aria-label={t('labels.manage')}
          style={{ ['--depth' as string]: '0' }}
          data-tree-key={manageLabelsKey(account.accountId)}
          data-tree-level={2}
          tabIndex={tabIndexOf(manageLabelsKey(account.accountId))}
          onClick={() => void navigate({ to: '/settings/$page', params: { page: 'labels' } })}
        >
          <Icon name="label" size={17} className="nav-icon" />
          <span className="nav-label">{labels.length === 0 ? t('labels.noLabels') : t('labels.manage')}</span>
        </button>
      </li>
    </ul>
  );
}
