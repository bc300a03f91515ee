/**
 * Where the composer opens: a panel docked at the bottom right, like the big webmails.
 * It answers the mail events (c, r, a, f, the Compose button) and the conversation
 * view's replies, and wires the composer's callbacks to the command functions. The
 * composer and its builders load lazily (they bring the HTML pipeline with them).
 *
 * The open composer is remembered for this tab (composer/open-composers.ts) by the draft
 * it saves: after a reload it opens again with the draft's content from the engine.
 */
import { useAtomValue, useSetAtom } from 'jotai';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { senderName } from '../../shared/account';
import { isErrorName, TernError } from '../../shared/errors';
import { identitiesOrOwn, identityForReply, isAlias, type Identity } from '../../shared/identities';
import type { MessageView } from '../../shared/worker-mail-api';
import type { ComposerInitial } from '../composer/compose-initial';
import { composerInitialOfDraft } from '../composer/draft-initial';
import { newDraftId, readOpenComposers, tabStorage, writeOpenComposers, type OpenComposer } from '../composer/open-composers';
import { MAIL_EVENTS, type MailEventDetail } from '../kit/mail-events';
import { useMailActions } from '../state/actions-context';
import { accountsAtom, composerAtom, draftStatusAtom, ownEmailsByAccountAtom } from '../state/atoms';
import { accountSettingsAtom, paywallAtom } from '../state/settings-atoms';
import type { ComposerWriting } from '../composer/ComposerTemplates';
import { DEFAULT_PREFERENCES } from '../../shared/preferences';
import { featureAllowed } from '../state/use-feature';
import type { MailActions } from '../state/mail-actions';
import { appUpdatedMessage, isChunkLoadError } from './chunk-errors';
import { dockClassName, isAnswer, revealLastMessage } from './composer-dock';
import { openerOf, restoreComposerFocus } from '../kit/composer-focus';
import { useT } from '../kit/i18n';
import { errorPhrase } from '../../shared/strings';

const Composer = lazy(() => import('../composer'));

type ReplyMode = 'reply' | 'replyAll' | 'forward';

/** The message a reply answers: the newest that is not a draft. */
const repliedMessage = (messages: readonly MessageView[]) => [...messages].reverse().find((message) => !message.draft) ?? messages.at(-1);

/** Builds a reply, reply-all or forward of a thread's newest message and opens it. */
export async function openReply(actions: MailActions, params: { accountId: string; threadId: string; mode: ReplyMode; ownAddresses: readonly string[]; identities?: readonly Identity[] }) {
  const [{ composeFromMessage }, thread] = await Promise.all([import('../composer'), actions.loadThread(params)]);
  const message = repliedMessage(thread.messages);
  if (!message) return;
  const body = await actions.loadBody({ accountId: message.accountId, messageId: message.id }).catch(() => null);
  // The reply comes from the identity the mail was addressed to (an alias's mail is answered from the alias).
  const identity = params.identities && identityForReply(params.identities, [...message.to, ...message.cc].map((address) => address.email));
  actions.openComposer({
    ...composeFromMessage({
      mode: params.mode,
      message,
      body,
      ownAddresses: params.ownAddresses,
      loadAttachment: (index) => actions.loadAttachment({ accountId: message.accountId, messageId: message.id, index }),
    }),
    ...(identity ? { from: { name: identity.name, email: identity.email } } : {}),
  });
}

/**
 * Undo of a Discard: the draft comes back whole — saved again as a new draft (the old one
 * is deleted from the gateway, its id spent) and open in the composer as it was.
 */
export async function restoreDiscarded(actions: Pick<MailActions, 'saveDraft' | 'openComposer' | 'toast'>, restore: ComposerInitial): Promise<void> {
  const draftId = newDraftId();
  const { mode: _mode, attachments = [], pendingAttachments: _pending, ...fields } = restore;
  try {
    await actions.saveDraft({ ...fields, draftId, attachmentIds: attachments.map((file) => file.attachmentId) });
  } catch (error) {
    actions.toast({ tone: 'error', title: { id: 'app.couldNotSaveDraft' }, message: errorPhrase(TernError.from(error)) });
  }
  actions.openComposer({ ...restore, draftId });
}

export function ComposerHost({ defaultAccountId }: { defaultAccountId: string | null }) {
  const t = useT();
  const actions = useMailActions();
  const open = useAtomValue(composerAtom);
  const accounts = useAtomValue(accountsAtom) ?? [];
  const ownEmailsByAccount = useAtomValue(ownEmailsByAccountAtom);
  const draftStatuses = useAtomValue(draftStatusAtom);
  const settings = useAtomValue(accountSettingsAtom);
  /** Each account's identities (its own address before the engine knows them); aliases while the plan allows them. */
  const identitiesOf = (accountId: string, email: string) => {
    const all = identitiesOrOwn(settings?.[accountId]?.identities, email);
    return featureAllowed(settings?.[accountId], 'emailAlias') ? all : all.filter((identity) => !isAlias(identity, email));
  };
  const showPaywall = useSetAtom(paywallAtom);
  /** Templates and Insert HTML in the composer: the engine's copy of each account's templates, saved through the engine. */
  const writing = useMemo<ComposerWriting>(
    () => ({
      templatesOf: (accountId) => settings?.[accountId]?.templates ?? [],
      saveTemplate: async (params) => {
        await actions.saveTemplate(params);
        actions.toast({ tone: 'info', message: { id: 'writing.templateSaved' } });
      },
      allowed: (feature, accountId) => featureAllowed(settings?.[accountId], feature),
      requestPaywall: (feature) => showPaywall({ feature }),
    }),
    [settings, actions, showPaywall],
  );
  const composerAccounts = useMemo(
    () =>
      accounts.flatMap((account) =>
        identitiesOf(account.accountId, account.emailAddress).map((identity) => ({
          accountId: account.accountId,
          identityId: identity.id,
          name: identity.name || senderName(account),
          email: identity.email,
          isDefault: identity.isDefault,
          signatureHtml: identity.signatureHtml,
          signatureOnReplies: identity.signatureOnReplies,
        })),
      ),
    [accounts, settings],
  );

  useEffect(() => {
    const fail = (error: unknown) =>
      actions.toast(
        isChunkLoadError(error)
          ? { tone: 'error', title: t('app.couldNotOpenThe'), message: appUpdatedMessage(), action: { label: { id: 'common.reload' }, run: () => location.reload() } }
          : { tone: 'error', title: t('app.couldNotOpenThe'), message: errorPhrase(TernError.from(error)) },
      );
    const onCompose = (event: Event) => {
      const accountId = (event as CustomEvent<MailEventDetail>).detail?.accountId ?? defaultAccountId;
      if (!accountId) return;
      import('../composer').then(({ composeNew }) => actions.openComposer(composeNew(accountId)), fail);
    };
    const onRespond = (mode: ReplyMode) => (event: Event) => {
      const { accountId, threadId } = (event as CustomEvent<MailEventDetail>).detail ?? {};
      if (!accountId || !threadId) return;
      // The thread's account is "me" (see ReadingPane): another account of the user is a correspondent.
      const account = accounts.find((candidate) => candidate.accountId === accountId);
      const identities = account ? identitiesOf(accountId, account.emailAddress) : undefined;
      openReply(actions, { accountId, threadId, mode, ownAddresses: [...(ownEmailsByAccount.get(accountId) ?? [])], ...(identities ? { identities } : {}) }).catch(fail);
    };
    const handlers: [string, (event: Event) => void][] = [
      [MAIL_EVENTS.compose, onCompose],
      [MAIL_EVENTS.reply, onRespond('reply')],
      [MAIL_EVENTS.replyAll, onRespond('replyAll')],
      [MAIL_EVENTS.forward, onRespond('forward')],
    ];
    for (const [name, handler] of handlers) window.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of handlers) window.removeEventListener(name, handler);
    };
  }, [actions, defaultAccountId, ownEmailsByAccount, accounts, settings]);

  // ── The open composer, remembered for a reload ──────────────────────────────
  const storage = useMemo(tabStorage, []);
  const openRef = useRef(open);
  openRef.current = open;
  /** Folded down to its title bar, per opening (a new composer opens unfolded). */
  const [minimized, setMinimized] = useState<{ readonly id: number; readonly value: boolean } | null>(null);
  const isMinimized = open !== null && minimized?.id === open.id && minimized.value;
  // Read when remembering: the composer keeps the save callback of its first render.
  const minimizedRef = useRef(isMinimized);
  minimizedRef.current = isMinimized;
  /** The draft the open composer saves, once it has one (what the tab remembers). */
  const current = useRef<Omit<OpenComposer, 'minimized'> | null>(null);
  /** The draft of a send in its undo window (an undo brings the composer back). */
  const sending = useRef<Omit<OpenComposer, 'minimized'> | null>(null);
  /** This tab's last send, until the gateway's answer: a failure brings its composer back. */
  const lastSend = useRef<{ readonly commandId: string; readonly entry: Omit<OpenComposer, 'minimized'> } | null>(null);
  const remember = (entry: Omit<OpenComposer, 'minimized'> | null, folded = minimizedRef.current) => {
    current.current = entry;
    writeOpenComposers(storage, entry ? [{ ...entry, minimized: folded }] : []);
  };
  const minimize = (value: boolean) => {
    if (!open) return;
    setMinimized({ id: open.id, value });
    if (current.current) remember(current.current, value);
  };
  /** Whether the composer reopening after a reload was folded. */
  const restoredMinimized = useRef<boolean | null>(null);
  // A composer opened on a saved draft (from Drafts, or restored) is that draft from the start.
  useEffect(() => {
    if (!open) return;
    const folded = restoredMinimized.current ?? false;
    restoredMinimized.current = null;
    if (folded) setMinimized({ id: open.id, value: true });
    if (open.initial.draftId) remember({ accountId: open.initial.accountId, draftId: open.initial.draftId, mode: open.initial.mode }, folded);
  }, [open]);
  // After a reload: the composer this tab had open, once the accounts are known.
  const restoring = useRef(false);
  useEffect(() => {
    if (restoring.current || accounts.length === 0) return;
    restoring.current = true;
    const entry = readOpenComposers(storage).find((candidate) => accounts.some((account) => account.accountId === candidate.accountId));
    if (!entry) {
      writeOpenComposers(storage, []);
      return;
    }
    actions.openDraft({ accountId: entry.accountId, draftId: entry.draftId }).then(
      (draft) => {
        // Something opened meanwhile (c pressed): that one stays; the draft is in Drafts.
        if (openRef.current) return;
        restoredMinimized.current = entry.minimized;
        actions.openComposer({ ...composerInitialOfDraft(draft), mode: entry.mode });
      },
      // Sent, deleted or gone with its account: nothing to reopen.
      () => !openRef.current && writeOpenComposers(storage, []),
    );
  }, [accounts, actions, storage]);

  // A send of this tab that failed after its composer closed: the composer comes back with its
  // text and why (the catalogue's sentence, the mail server's reply). With another message
  // open, that one stays; the send notice (Toasts) offers the draft.
  const failedSend = lastSend.current ? draftStatuses[lastSend.current.entry.draftId] : undefined;
  useEffect(() => {
    const mine = lastSend.current;
    if (!mine || failedSend?.commandId !== mine.commandId || failedSend.kind !== 'send') return;
    if (failedSend.status !== 'failed') {
      if (failedSend.status !== 'pending') lastSend.current = null;
      return;
    }
    lastSend.current = null;
    if (openRef.current) return;
    const error = failedSend.error;
    const message = error && isErrorName(error.name) ? new TernError(error.name).message : (error?.message ?? new TernError('SendFailed').message);
    actions.openDraft({ accountId: mine.entry.accountId, draftId: mine.entry.draftId }).then(
      (draft) => {
        if (openRef.current) return;
        actions.openComposer({ ...composerInitialOfDraft(draft), mode: mine.entry.mode, sendFailure: { message, ...(error?.detail ? { detail: error.detail } : {}) } });
        // The composer tells it now; the notice would say it twice.
        void actions.dismissSendNotice({ accountId: mine.entry.accountId, noticeId: mine.commandId }).catch(() => undefined);
      },
      () => undefined, // the notice still offers it
    );
  }, [failedSend, actions]);

  // ── Focus: back to what opened the composer once it closes (composer-focus.ts) ──
  // Read while rendering the opening: the composer's own autofocus has not moved it yet.
  const opener = useRef<{ readonly id: number; readonly element: HTMLElement | null } | null>(null);
  if (open && opener.current?.id !== open.id) opener.current = { id: open.id, element: openerOf(document.activeElement, opener.current?.element ?? null) };
  const wasOpen = useRef(false);
  useLayoutEffect(() => {
    if (open) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    restoreComposerFocus(opener.current?.element ?? null);
    opener.current = null;
  }, [open]);

  // An answer opening (or unfolding): the pane has made room; its last message is kept in sight (composer-dock.ts).
  const answering = open !== null && isAnswer(open.initial) && !isMinimized;
  useLayoutEffect(() => {
    if (answering) revealLastMessage();
  }, [answering, open?.id]);

  if (!open) return null;
  const mode = open.initial.mode;
  return (
    // The composer is a named form itself; the dock only places it.
    <div className={dockClassName(open.initial, isMinimized)}>
      <Suspense fallback={<div className="composer-loading">{t('app.openingTheComposer')}</div>}>
        <Composer
          key={open.id}
          initial={open.initial}
          accounts={composerAccounts}
          writing={writing}
          // The account's undo window (Settings › Email actions); the gateway holds the message that long.
          undoDelayMs={(settings?.[open.initial.accountId]?.preferences.undoSendSeconds ?? DEFAULT_PREFERENCES.undoSendSeconds) * 1000}
          minimized={isMinimized}
          onMinimize={minimize}
          onSave={(draft) => {
            // A new draft is named here, so the tab knows it before the engine answers (a reload may come first).
            const draftId = draft.draftId ?? newDraftId();
            remember({ accountId: draft.accountId, draftId, mode });
            return actions.saveDraft({ ...draft, draftId });
          }}
          draftStatuses={draftStatuses}
          onUseOtherVersion={({ accountId, draftId }) => {
            actions.openDraft({ accountId, draftId }).then(
              (draft) => actions.openComposer({ ...composerInitialOfDraft(draft), mode }),
              (error: unknown) => {
                actions.closeComposer();
                actions.toast({ tone: 'error', title: t('app.couldNotOpenThe2'), message: errorPhrase(TernError.from(error)) });
              },
            );
          }}
          onSend={(params) => {
            // On its way out: a reload in the undo window does not bring it back as a draft.
            const entry = { accountId: params.accountId, draftId: params.draftId, mode };
            sending.current = entry;
            remember(null);
            return actions.send(params).then(
              (result) => {
                lastSend.current = { commandId: result.commandId, entry };
                return result;
              },
              (error: unknown) => {
                remember(sending.current);
                throw error;
              },
            );
          }}
          onUndo={async (commandId) => {
            const undone = await actions.undoSend(commandId);
            // Back in the composer: remembered again.
            if (undone && openRef.current === open) remember(sending.current);
            return undone;
          }}
          onUpload={(params, onProgress) => actions.uploadAttachment(params, onProgress)}
          onCancelUpload={(uploadId) => actions.cancelUpload(uploadId)}
          suggest={(prefix) => actions.suggestAddresses({ accountIds: composerAccounts.map((account) => account.accountId), prefix, limit: 8 })}
          forgetSuggestion={(email) => actions.forgetSuggestion({ accountIds: composerAccounts.map((account) => account.accountId), email })}
          onDiscard={({ draftId, restore }) => {
            remember(null);
            actions.closeComposer();
            if (draftId) actions.discardDraft({ accountId: restore.accountId, draftId }).catch((error: unknown) => actions.toast({ tone: 'error', title: t('app.couldNotDiscardThe'), message: errorPhrase(TernError.from(error)) }));
            const toastId = actions.toast({
              tone: 'info',
              message: t('app.draftDiscarded'),
              action: {
                label: { id: 'common.undo' },
                run: () => {
                  actions.dismissToast(toastId);
                  void restoreDiscarded(actions, restore);
                },
              },
            });
          }}
          onClose={() => {
            remember(null);
            actions.closeComposer();
          }}
        />
      </Suspense>
    </div>
  );
}
