/**
 * The save indicator believes the engine's status for the save, not the local write: the
 * composer used to say "Saved" while every save to the gateway failed or was refused.
 */
import { expect, test } from 'vitest';
import type { CommandStatus } from '../../../../shared/worker-mail-api';
import { conflictOf, indicatorText, saveIndicatorOf } from '../../../../src-ui/composer/save-indicator';
import { format } from '../../../../shared/strings';
import type { Translate } from '../../../../src-ui/kit/i18n';

const t: Translate = (id, values) => format('en', id, values);

const saved = { status: 'saved', at: 1, commandId: 'c-2' } as const;
const status = (over: Partial<CommandStatus>): CommandStatus => ({ commandId: 'c-2', accountId: '7', kind: 'saveDraft', status: 'pending', draftId: 'd-1', ...over });

test('recorded on this device is "Saving…" until the gateway confirms this very save', () => {
  expect(saveIndicatorOf(saved, undefined, false)).toEqual({ kind: 'saving' });
  expect(saveIndicatorOf(saved, status({}), false)).toEqual({ kind: 'saving' });
  // An older save's confirmation is not this one's.
  expect(saveIndicatorOf(saved, status({ commandId: 'c-1', status: 'done' }), false)).toEqual({ kind: 'saving' });
  expect(saveIndicatorOf(saved, status({ status: 'done' }), false)).toEqual({ kind: 'saved' });
});

test('a save the engine keeps retrying is "Saved on this device only", with the reason in the accessible text', () => {
  const indicator = saveIndicatorOf(saved, status({ error: { name: 'OperationFailed', message: 'You are offline.' } }), false);
  expect(indicator).toEqual({ kind: 'local', reason: 'You are offline.' });
  expect(indicatorText(indicator, t)).toEqual({ text: 'Saved on this device only', full: 'Draft saved on this device only, not on the server yet: You are offline.' });
});

test('a save the gateway refused as stale is a conflict (with the copy the engine kept), other failures are "Not saved"', () => {
  const refused = status({ status: 'failed', error: { name: 'InvalidDraftVersion', message: 'changed' }, keptAs: 'local-k' });
  expect(saveIndicatorOf(saved, refused, false)).toEqual({ kind: 'conflict', conflict: { reason: 'edited', keptAs: 'local-k' } });
  expect(conflictOf(refused, 'c-2')).toEqual({ reason: 'edited', keptAs: 'local-k' });
  expect(conflictOf(refused, 'c-3')).toBeNull();
  expect(saveIndicatorOf(saved, status({ status: 'failed', error: { name: 'MailQuotaFull', message: 'Your mailbox is full.' } }), false)).toEqual({ kind: 'failed', reason: 'Your mailbox is full.' });
});

test('the composer’s own states: nothing yet, an opened draft, a refusal at once, a failed local write', () => {
  expect(saveIndicatorOf({ status: 'idle' }, undefined, false)).toEqual({ kind: 'none' });
  expect(saveIndicatorOf({ status: 'idle' }, undefined, true)).toEqual({ kind: 'saved' });
  expect(saveIndicatorOf({ status: 'conflict', conflict: { reason: 'sent' } }, undefined, true)).toEqual({ kind: 'conflict', conflict: { reason: 'sent' } });
  expect(indicatorText({ kind: 'conflict', conflict: { reason: 'sent' } }, t).full).toBe('Conflict: this draft was sent from another tab or window.');
  expect(saveIndicatorOf({ status: 'failed', message: 'Storage is full.' }, undefined, false)).toEqual({ kind: 'failed', reason: 'Storage is full.' });
});
