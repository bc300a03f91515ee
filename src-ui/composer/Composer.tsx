/**
 * Writing a message: new, reply, reply all or forward. Recipients as validated chips
 * with suggestions, a subject, a rich-text body, attachments (picker, drag and drop,
 * paste) with per-file progress, From among the user's accounts. The draft saves itself
 * once the person has changed something (a reply or forward closed untouched leaves no
 * draft behind) and is restored from `initial` after a reload; Send waits ~5 s with Undo
 * before the message leaves, and Undo brings back the whole message. Ctrl/Cmd+Enter
 * sends; Escape closes and keeps the draft; Discard (Ctrl+Shift+D) throws it away, the
 * host offering Undo.
 *
 * Everything reaches the engine through the callbacks; the shell wires them to src-ui/state.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Address } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { DraftInput } from '../../shared/worker-mail-api';
import { Icon } from '../kit/icons';
import { caretAtEndOfWriting, focusedField, type ComposerField } from './caret';
import { ComposerFields, type RecipientKind } from './ComposerFields';
import { ComposerFooter } from './ComposerFooter';
import { ComposerHeader } from './ComposerHeader';
import { DEFAULT_AUTOSAVE_DELAY_MS, DEFAULT_UNDO_DELAY_MS, type ComposerProps } from './composer-props';
import { ComposerStyle } from './ComposerStyle';
import { composeAgain, type ComposerInitial } from './compose-initial';
import { ComposerNotice, type ComposerNoticeText } from './ComposerNotice';
import { ConflictBar } from './ConflictBar';
import type { SaveStatus } from './draft-autosave';
import { isBlankHtml, prepareOutgoingHtml } from './editor-html';
import { addChips, chipFromAddress, chipsToAddresses, parseRecipients, type RecipientChip } from './recipients';
import { RichTextEditor, type RichTextEditorHandle } from './RichTextEditor';
import type { Schedule } from '../../shared/send-time';
import { sendProblem } from './send-checks';
import { SendToast } from './SendToast';
import { UploadList } from './UploadList';
import { useAttachmentUploads } from './use-attachment-uploads';
import { useDraftTruth } from './use-draft-truth';
import { useFileDropGuard } from './use-file-drop-guard';
import { useComposerAutosave } from './use-composer-autosave';
import { useComposerFrom } from './use-composer-from';
import { useSignature } from './use-signature';
import { ComposerTemplates } from './ComposerTemplates';
import { ComposerEmoji } from './ComposerEmoji';
import { ComposerSpelling } from './ComposerSpelling';
import { useFileDropZone } from './use-file-drop-zone';
import { errorText, useT, type MessageId } from '../kit/i18n';
import { useSpellCheck } from '../state/use-feature';

export { DEFAULT_AUTOSAVE_DELAY_MS, DEFAULT_UNDO_DELAY_MS, type ComposerAccount, type ComposerProps } from './composer-props';

type Phase =
  | { readonly kind: 'editing' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'undoable'; readonly commandId: string }
  | { readonly kind: 'undoing' }
  | { readonly kind: 'sent' };

const TITLES: Record<ComposerInitial['mode'], MessageId> = { new: 'composer.titleNew', reply: 'composer.titleReply', replyAll: 'composer.titleReplyAll', forward: 'composer.titleForward' };

const toChips = (addresses: readonly Address[]) => addresses.map(chipFromAddress);

export function Composer(props: ComposerProps) {
  const t = useT();
  const { initial, accounts, onSave, onSend, onUndo, onUpload, onCancelUpload, suggest, onClose } = props;
  const undoDelayMs = props.undoDelayMs ?? DEFAULT_UNDO_DELAY_MS;
  const titleId = useId();
  const statusId = useId();

  const [accountId, setAccountId] = useState(initial.accountId);
  const from = useComposerFrom({ accounts, initial, accountId });
  const spellCheck = useSpellCheck(accountId);
  const [to, setTo] = useState<RecipientChip[]>(() => toChips(initial.to));
  const [cc, setCc] = useState<RecipientChip[]>(() => toChips(initial.cc));
  const [bcc, setBcc] = useState<RecipientChip[]>(() => toChips(initial.bcc));
  const chipSetters: Record<RecipientKind, (chips: RecipientChip[]) => void> = { to: setTo, cc: setCc, bcc: setBcc };
  const [pending, setPending] = useState({ to: '', cc: '', bcc: '' });
  const [showCc, setShowCc] = useState(initial.cc.length > 0);
  const [showBcc, setShowBcc] = useState(initial.bcc.length > 0);
  const [subject, setSubject] = useState(initial.subject);
  const [bodyVersion, setBodyVersion] = useState(0);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ status: 'idle' });
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  /** "Ask for a read receipt" (RFC 8098): the send carries Disposition-Notification-To. */
  const [requestReceipt, setRequestReceipt] = useState(false);
  /** Bumped by Ctrl+Shift+Y: the Templates menu opens. */
  const [templatesSignal, setTemplatesSignal] = useState(0);
  // Back after a failed send: why, in the catalogue's words and the mail server's own.
  const [notice, setNotice] = useState<ComposerNoticeText | null>(() =>
    initial.sendFailure ? { kind: 'error', text: t('composer.noticeNotSent', { reason: initial.sendFailure.message }), ...(initial.sendFailure.detail ? { detail: initial.sendFailure.detail } : {}) } : null,
  );
  /** The save whose gateway outcome the indicator waits for. */
  const lastSave = useRef<string | undefined>(undefined);

  const editor = useRef<RichTextEditorHandle>(null);
  const signature = useSignature({ editor, initial, choice: from.choice });
  const toInput = useRef<HTMLInputElement | null>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const subjectInput = useRef<HTMLInputElement>(null);
  /** The field that had the focus when Send was pressed: it gets it back after Undo send. */
  const sendField = useRef<ComposerField>('body');
  const refocusAfterUndo = useRef(false);
  const focusInvalidChip = useRef(false);
  useEffect(() => {
    if (!focusInvalidChip.current) return;
    focusInvalidChip.current = false;
    formRef.current?.querySelector<HTMLElement>('.tern-chip.is-invalid .tern-chip-label')?.focus();
  });
  const mounted = useRef(true);
  const accountRef = useRef(accountId);
  accountRef.current = accountId;
  /**
   * Whether the person changed anything (typed, a recipient, an attachment, From). Until
   * then nothing is saved: a reply's recipients and quote, or a forward's attachments
   * arriving, are what the app wrote, not a draft anyone asked for.
   */
  const changed = useRef(false);
  const touch = () => {
    changed.current = true;
  };
  /** Recipient and subject setters that count as a change. */
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      touch();
      set(value);
    };
  /** Recipient text being typed (not yet a chip) counts as a change too. */
  const typePending = (field: RecipientKind) => (text: string) => {
    touch();
    setPending((current) => ({ ...current, [field]: text }));
  };
  /**
   * The body as it was sent, for the editor that comes back after Undo (the editor leaves
   * the page while the Undo toast shows, and would otherwise start again from `initial`).
   */
  const sentBody = useRef<string | null>(null);
  const engineUploads = useAttachmentUploads({ initial, accountRef, onUpload, ...(onCancelUpload ? { onCancelUpload } : {}) });
  // The person's own attachment changes (picker, drop, paste, remove, retry) count as a change.
  const uploads = {
    ...engineUploads,
    addFiles: (files: readonly File[]) => {
      touch();
      engineUploads.addFiles(files);
    },
    remove: (key: string) => {
      touch();
      engineUploads.remove(key);
    },
    retry: (key: string) => {
      touch();
      engineUploads.retry(key);
    },
  };
  const attachments = uploads.items;
  useFileDropGuard();

  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const autosave = useComposerAutosave({
    delayMs: props.autosaveDelayMs ?? DEFAULT_AUTOSAVE_DELAY_MS,
    save: onSave,
    initial,
    lastSave,
    mounted,
    onStatus: setSaveStatus,
  });

  // ── The save's truth: the engine's status for this draft, and a conflict it reports ──
  const { indicator, conflict, resolving, keepBoth, useOther } = useDraftTruth({
    autosave,
    saveStatus,
    draftStatuses: props.draftStatuses,
    opened: Boolean(initial.draftId),
    lastSave,
    mounted,
    accountId,
    onUseOtherVersion: props.onUseOtherVersion,
    onNotice: setNotice,
  });

  /** The draft as it stands (with recipient text not yet turned into chips, when asked). */
  const snapshot = useCallback(
    (withPending = false): DraftInput => {
      const withText = (chips: RecipientChip[], text: string) => (withPending && text.trim() ? addChips(chips, parseRecipients(text)) : chips);
      return {
        accountId,
        draftId: autosave.draftId,
        to: chipsToAddresses(withText(to, pending.to)),
        cc: chipsToAddresses(withText(cc, pending.cc)),
        bcc: chipsToAddresses(withText(bcc, pending.bcc)),
        subject,
        html: prepareOutgoingHtml(editor.current?.html() ?? ''),
        ...(initial.inReplyToMessageId ? { inReplyToMessageId: initial.inReplyToMessageId } : {}),
        attachmentIds: attachments.filter((item) => item.status === 'done' && item.attachmentId).map((item) => item.attachmentId as string),
        ...(from.choice ? { from: { name: from.choice.name, email: from.choice.email } } : {}),
      };
    },
    [accountId, to, cc, bcc, pending, subject, attachments, autosave, initial.inReplyToMessageId, from.choice],
  );

  /** Nothing changed by the person, or a new message with nothing in it: not worth a draft. */
  const worthSaving = (draft: DraftInput): DraftInput | null =>
    !changed.current ||
    (autosave.draftId === undefined &&
      draft.to.length + draft.cc.length + draft.bcc.length === 0 &&
      draft.subject.trim() === '' &&
      isBlankHtml(draft.html) &&
      draft.attachmentIds.length === 0)
      ? null
      : draft;

  // Every change schedules a save; a reopened draft counts as saved as it is.
  const opened = useRef(false);
  useEffect(() => {
    if (!opened.current) {
      opened.current = true;
      if (initial.draftId) autosave.markSaved(snapshot());
      return;
    }
    if (phase.kind !== 'editing') return;
    autosave.schedule(() => worthSaving(snapshot()));
    // bodyVersion stands for the editor's content, which React does not hold.
  }, [snapshot, bodyVersion]);

  // From another account: the draft and its uploads belong to the account, so both start over there.
  const changeAccount = (next: string) => {
    if (next === accountId) return;
    touch();
    autosave.forgetDraft();
    accountRef.current = next;
    setAccountId(next);
    uploads.moveToAccount(next);
  };
  /** Another From: another account's (the draft moves there) or another identity of this one. */
  const changeFrom = (key: string) => {
    const next = from.choose(key);
    if (!next) return;
    touch();
    changeAccount(next.accountId);
    signature.swap(next);
  };

  // ── Send, undo, close ───────────────────────────────────────────────────────
  const commitPending = () => {
    if (pending.to.trim()) setTo((chips) => addChips(chips, parseRecipients(pending.to)));
    if (pending.cc.trim()) setCc((chips) => addChips(chips, parseRecipients(pending.cc)));
    if (pending.bcc.trim()) setBcc((chips) => addChips(chips, parseRecipients(pending.bcc)));
    setPending({ to: '', cc: '', bcc: '' });
  };

  /** Send now (with the undo window), or at `schedule` (Send later: the gateway sends it then, no undo window). */
  const send = async (schedule?: Schedule) => {
    if (phase.kind !== 'editing') return;
    commitPending();
    const withPending = (chips: RecipientChip[], text: string) => (text.trim() ? addChips(chips, parseRecipients(text)) : chips);
    const all = [...withPending(to, pending.to), ...withPending(cc, pending.cc), ...withPending(bcc, pending.bcc)];
    const problem = sendProblem(all, attachments, t);
    if (problem) {
      setNotice({ kind: 'error', text: problem.text });
      if (problem.kind === 'noRecipient') toInput.current?.focus();
      // Nothing leaves: the first bad chip takes the focus (once typed text has become chips), its field says why.
      if (problem.kind === 'invalidAddress') focusInvalidChip.current = true;
      return;
    }
    setNotice(null);
    sendField.current = focusedField(formRef.current, toInput.current, subjectInput.current);
    setPhase({ kind: 'sending' });
    try {
      const draft = snapshot(true);
      sentBody.current = draft.html;
      const draftId = await autosave.flush(() => draft);
      if (!draftId) throw new TernError('DraftDoesNotExist');
      const { commandId } = await onSend({ accountId, draftId, delayMs: undoDelayMs, subject: draft.subject, ...(schedule ? { schedule } : {}), ...(requestReceipt ? { requestReceipt } : {}) });
      if (schedule) {
        // In the Scheduled list now: nothing to undo here (cancel it there); the composer is done.
        if (mounted.current) setPhase({ kind: 'sent' });
        onCloseRef.current('sent');
        return;
      }
      if (mounted.current) setPhase({ kind: 'undoable', commandId });
    } catch (cause) {
      if (!mounted.current) return;
      setPhase({ kind: 'editing' });
      setNotice({ kind: 'error', text: t('composer.noticeNotSent', { reason: errorText(t, TernError.from(cause)) }) });
    }
  };

  // The undo window: when it ends, the message has left and the composer is done.
  useEffect(() => {
    if (phase.kind !== 'undoable') return;
    undoButton.current?.focus();
    const timer = setTimeout(() => {
      setPhase({ kind: 'sent' });
      onCloseRef.current('sent');
    }, undoDelayMs);
    return () => clearTimeout(timer);
  }, [phase, undoDelayMs]);

  // Back from the undo window: the field that had the focus takes it again (the body: caret after what was written).
  useEffect(() => {
    if (phase.kind !== 'editing' || !refocusAfterUndo.current) return;
    refocusAfterUndo.current = false;
    if (sendField.current === 'to') toInput.current?.focus();
    else if (sendField.current === 'subject') subjectInput.current?.focus();
    else {
      editor.current?.focus();
      const body = formRef.current?.querySelector<HTMLElement>('[contenteditable="true"]');
      if (body) caretAtEndOfWriting(body);
    }
  }, [phase]);

  const undo = async () => {
    if (phase.kind !== 'undoable') return;
    const { commandId } = phase;
    setPhase({ kind: 'undoing' });
    const stopped = await onUndo(commandId).catch(() => false);
    if (!mounted.current) return;
    if (stopped) {
      setPhase({ kind: 'editing' });
      setNotice({ kind: 'info', text: t('composer.noticeSendUndone') });
      refocusAfterUndo.current = true;
    } else {
      setPhase({ kind: 'sent' });
      onCloseRef.current('sent');
    }
  };

  const close = async () => {
    if (phase.kind !== 'editing') return;
    // Closing would stop them (nothing could attach them any more): the person decides.
    if (attachments.some((item) => item.status === 'uploading')) {
      setNotice({ kind: 'error', text: t('composer.noticeUploadingOnClose') });
      return;
    }
    const draft = worthSaving(snapshot(true));
    if (draft) {
      try {
        // Closed in conflict without a choice: this version is kept as a draft of its own.
        if (autosave.conflict) await autosave.flush(() => draft).catch(() => autosave.keepBoth());
        else await autosave.flush(() => draft);
      } catch (cause) {
        setNotice({ kind: 'error', text: t('composer.noticeDraftNotSaved', { reason: errorText(t, TernError.from(cause)) }) });
        return;
      }
    }
    onCloseRef.current('closed');
  };

  /** Throws the draft away, keeping all it held for the host's Undo (no confirmation: Undo is the way back). */
  const discard = async () => {
    const onDiscard = props.onDiscard;
    if (phase.kind !== 'editing' || !onDiscard) return;
    const draft = snapshot(true);
    const draftId = await autosave.stop();
    const uploaded = attachments.filter((item) => item.status === 'done' && item.attachmentId).map((item) => ({ attachmentId: item.attachmentId as string, fileName: item.fileName, size: item.size }));
    const restore = composeAgain(initial.mode, draft, uploaded);
    onDiscard({ draftId, restore });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (props.onDiscard && (event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'd') {
      event.preventDefault();
      void discard();
    } else if (props.writing && (event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'y') {
      event.preventDefault();
      setTemplatesSignal((signal) => signal + 1);
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      void close();
    }
  };

  // Put the caret where people write: the To field for a new message or forward, the body for a reply.
  useEffect(() => {
    if (initial.mode === 'reply' || initial.mode === 'replyAll') editor.current?.focusStart();
  }, []);

  const { dragging, handlers: dropHandlers } = useFileDropZone((files) => uploads.addFiles(files));

  const title = subject.trim() || t(TITLES[initial.mode]);

  if (phase.kind === 'undoable' || phase.kind === 'undoing' || phase.kind === 'sent') {
    return <SendToast phase={phase.kind} undoDelayMs={undoDelayMs} undoButton={undoButton} onUndo={() => void undo()} />;
  }

  const uploading = attachments.filter((item) => item.status === 'uploading');

  return (
    <form
      ref={formRef}
      className={`tern-composer${dragging ? ' is-dragging' : ''}${props.minimized ? ' is-minimized' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={statusId}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onKeyDown={onKeyDown}
      {...dropHandlers}
    >
      <ComposerStyle />
      <ComposerHeader titleId={titleId} statusId={statusId} title={title} indicator={indicator} minimized={props.minimized} onMinimize={props.onMinimize} onClose={() => void close()} />

      {conflict && <ConflictBar conflict={conflict} busy={resolving} onKeepBoth={keepBoth} onUseOther={useOther} />}

      <ComposerFields
        titleId={titleId}
        initial={initial}
        accounts={accounts}
        from={from.key}
        onFromChange={changeFrom}
        chips={{ to, cc, bcc }}
        pending={pending}
        onChipsChange={(kind) => edited(chipSetters[kind])}
        onPendingChange={typePending}
        suggest={suggest}
        {...(props.forgetSuggestion ? { forgetSuggestion: props.forgetSuggestion } : {})}
        toInput={toInput}
        subject={subject}
        onSubjectChange={edited(setSubject)}
        subjectInput={subjectInput}
        shown={{ cc: showCc, bcc: showBcc }}
        onShow={(kind) => (kind === 'cc' ? setShowCc(true) : setShowBcc(true))}
      />

      <RichTextEditor
        handleRef={editor}
        initialHtml={sentBody.current ?? signature.openingHtml}
        onInput={() => {
          touch();
          setBodyVersion((version) => version + 1);
        }}
        onPasteFiles={(pasted) => uploads.addFiles(pasted)}
        spellCheck={spellCheck}
      />

      <UploadList uploads={uploads} />

      {notice && <ComposerNotice notice={notice} />}

      <ComposerFooter
        sending={phase.kind === 'sending'}
        uploadingCount={uploading.length}
        indicator={indicator}
        onAddFiles={(files) => uploads.addFiles(files)}
        onRetrySave={() => void autosave.retry(() => worthSaving(snapshot())).catch(() => undefined)}
        onSchedule={(schedule) => void send(schedule)}
        onDiscard={props.onDiscard ? () => void discard() : undefined}
        tools={
          <>
            <ComposerEmoji editor={editor} />
            {spellCheck && <ComposerSpelling editor={editor} accountId={accountId} bodyVersion={bodyVersion} onNotice={setNotice} />}
            <button type="button" className="tern-icon-button" aria-label={t('writing.requestReceipt')} title={t('writing.requestReceipt')} aria-pressed={requestReceipt} onClick={() => setRequestReceipt((value) => !value)}>
              <Icon name="doubleCheck" />
            </button>
            {props.writing && (
              <ComposerTemplates
                writing={props.writing}
                accountId={accountId}
                editor={editor}
                subject={subject}
                onSubject={edited(setSubject)}
                recipient={to.find((chip) => chip.valid && !chip.members)}
                senderName={from.choice?.name ?? ''}
                onNotice={setNotice}
                openSignal={templatesSignal}
              />
            )}
          </>
        }
      />
      {dragging && (
        <div className="tern-drop-overlay" aria-hidden="true">
          <Icon name="paperclip" size={28} />
          <span>{t('composer.dropFilesToAttach')}</span>
        </div>
      )}
    </form>
  );
}

export default Composer;
