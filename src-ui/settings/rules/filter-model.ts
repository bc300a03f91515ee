/**
 * The Filters page's pure parts: a new filter (blank, or from a message), the default of each
 * condition field and action kind, a filter's one-line summary, and list moves.
 */
import type { ActionKind, ConditionField, MailFilter, RuleAction, RuleCondition } from '../../../shared/mail-rules';
import type { MessageId, Translate } from '../../kit/i18n';
import type { FilterPrefill } from '../../state/rules-prefill';

export const CONDITION_FIELDS: readonly ConditionField[] = ['from', 'toCc', 'subject', 'listId', 'header', 'size', 'hasAttachment'];
export const ACTION_KINDS: readonly ActionKind[] = ['move', 'markRead', 'star', 'label', 'forward', 'delete', 'stop'];

export const FIELD_LABELS: Record<ConditionField, MessageId> = {
  from: 'rules.fieldFrom',
  toCc: 'rules.fieldToCc',
  subject: 'rules.fieldSubject',
  listId: 'rules.fieldListId',
  header: 'rules.fieldHeader',
  size: 'rules.fieldSize',
  hasAttachment: 'rules.fieldHasAttachment',
};

export const ACTION_LABELS: Record<ActionKind, MessageId> = {
  move: 'rules.actionMove',
  markRead: 'rules.actionMarkRead',
  star: 'rules.actionStar',
  label: 'rules.actionLabel',
  forward: 'rules.actionForward',
  delete: 'rules.actionDelete',
  stop: 'rules.actionStop',
};

export const OP_LABELS: Record<'contains' | 'is' | 'notContains' | 'over' | 'under', MessageId> = {
  contains: 'rules.opContains',
  is: 'rules.opIs',
  notContains: 'rules.opNotContains',
  over: 'rules.opOver',
  under: 'rules.opUnder',
};

export function defaultCondition(field: ConditionField): RuleCondition {
  switch (field) {
    case 'header':
      return { field, name: '', op: 'contains', value: '' };
    case 'size':
      return { field, op: 'over', kilobytes: 1024 };
    case 'hasAttachment':
      return { field };
    default:
      return { field, op: 'contains', value: '' };
  }
}

export function defaultAction(kind: ActionKind, folders: readonly string[]): RuleAction {
  switch (kind) {
    case 'move':
      return { kind, folder: folders[0] ?? '' };
    case 'label':
      return { kind, keyword: '' };
    case 'forward':
      return { kind, address: '' };
    default:
      return { kind };
  }
}

const newId = () => `f${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A new filter; from a message, its sender (or its list) and subject. */
export function newFilter(folders: readonly string[], prefill?: FilterPrefill | null): MailFilter {
  const conditions: RuleCondition[] = [];
  if (prefill?.listId) conditions.push({ field: 'listId', op: 'contains', value: prefill.listId });
  else if (prefill?.from) conditions.push({ field: 'from', op: 'is', value: prefill.from });
  // The sender alone, as Gmail's "Filter messages like these" does: sender and subject together rarely match again.
  if (prefill?.subject && !prefill.listId && !prefill.from) conditions.push({ field: 'subject', op: 'contains', value: prefill.subject });
  return {
    id: newId(),
    name: prefill?.from ?? prefill?.listId ?? '',
    enabled: true,
    match: 'all',
    conditions: conditions.length ? conditions : [defaultCondition('from')],
    actions: [defaultAction('move', folders)],
  };
}

/** "Subject contains “Invoice” → Move to folder Archive, Star". */
export function filterSummary(t: Translate, filter: MailFilter): string {
  const conditions = filter.conditions
    .map((condition) => {
      const field = t(FIELD_LABELS[condition.field]);
      if (condition.field === 'hasAttachment') return field;
      if (condition.field === 'size') return `${field} ${t(OP_LABELS[condition.op])} ${condition.kilobytes}`;
      const name = condition.field === 'header' ? ` ${condition.name}` : '';
      return `${field}${name} ${t(OP_LABELS[condition.op])} “${condition.value}”`;
    })
    .join(filter.match === 'all' ? ' & ' : ' | ');
  const actions = filter.actions
    .map((action) => {
      const label = t(ACTION_LABELS[action.kind]);
      if (action.kind === 'move') return `${label} ${action.folder}`;
      if (action.kind === 'label') return `${label} ${action.keyword}`;
      if (action.kind === 'forward') return `${label} ${action.address}`;
      return label;
    })
    .join(', ');
  return t('rules.summary', { conditions, actions });
}

/** The list with the item at `index` moved by `by` places (clamped). */
export function moved<T>(items: readonly T[], index: number, by: number): T[] {
  const next = [...items];
  const target = Math.max(0, Math.min(items.length - 1, index + by));
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item!);
  return next;
}
