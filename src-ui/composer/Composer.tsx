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
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Address } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { CommandStatus, DraftInput, DraftSaveReceipt } from '../../shared/worker-mail-api';
import { CloseIcon, PaperclipIcon, SendIcon, TrashIcon } from '../conversation/icons';
import { caretAtEndOfWriting, focusedField, type ComposerField } from './caret';
import { COMPOSER_CSS } from './composer-styles';
import type { ComposerInitial } from './compose-initial';
import { ConflictBar } from './ConflictBar';
import { DraftAutosave, type SaveStatus } from './draft-autosave';
import { isBlankHtml, prepareOutgoingHtml } from './editor-html';
import { RecipientField } from './RecipientField';
import { chipFromAddress, chipsToAddresses, INVALID_ADDRESS_MESSAGE, parseRecipients, addChips, type RecipientChip } from './recipients';
import { RichTextEditor, type RichTextEditorHandle } from './RichTextEditor';
import { SaveIndicatorView } from './SaveIndicatorView';
import { UploadList } from './UploadList';
import { useAttachmentUploads, type UploadFunction } from './use-attachment-uploads';
import { useDraftTruth } from './use-draft-truth';
import { useFileDropGuard } from './use-file-drop-guard';

/** An account the message can be sent from. */
export interface ComposerAccount {
  readonly accountId: string;
  readonly name: string;
  readonly email: string;
}

export interface ComposerProps {
  /** What the composer opens with (composeNew / composeFromMessage / composeFromMailto, or a restored draft). */
  readonly initial: ComposerInitial;
  /** The user's accounts, for From. */
  readonly accounts: readonly ComposerAccount[];
  /** MailCommandService.saveDraft: creates or updates the draft; resolves with its id (and its revision and command). */
  readonly onSave: (draft: DraftInput) => Promise<DraftSaveReceipt>;
  /** MailCommandService.send with the undo window (`subject` names it on a notice if it fails). */
  readonly onSend: (params: { accountId: string; draftId: string; delayMs: number; subject?: string }) => Promise<{ commandId: string }>;
  /** The engine's latest status per draft id (draftStatusAtom): what the save indicator believes, not the local write. */
  readonly draftStatuses?: Readonly<Record<string, CommandStatus>>;
  /** "Use the other version" of a draft in conflict: the host opens the draft again as it now is. */
  readonly onUseOtherVersion?: (draft: { readonly accountId: string; readonly draftId: string }) => void;
  /** MailCommandService.undoSend: true when the send was stopped in time. */
  readonly onUndo: (commandId: string) => Promise<boolean>;
  /** MailCommandService.uploadAttachment, reporting progress 0–1. */
  readonly onUpload: UploadFunction;
  /** MailCommandService.cancelUpload, by the `uploadId` an upload was started with. */
  readonly onCancelUpload?: (uploadId: string) => Promise<boolean>;
  /** Recipient suggestions for a typed prefix (MailQueryService.suggestAddresses). */
  readonly suggest: (prefix: string) => Promise<readonly Address[]>;
  /** The composer is done: closed (draft kept) or sent (after the undo window). */
  readonly onClose: (outcome: 'closed' | 'sent') => void;
  /**
   * Discard: the composer saves nothing more and hands over the draft's id (undefined when
   * it was never saved) and everything it held, to open again as it was (Undo). Without
   * it the composer has no Discard button.
   */
  readonly onDiscard?: (discarded: { readonly draftId: string | undefined; readonly restore: ComposerInitial }) => void;
  /** Undo window; default 5 s. */
  readonly undoDelayMs?: number;
  /** Quiet time before a draft saves; default 1.5 s. */
  readonly autosaveDelayMs?: number;
  /** Folded down to its title bar (the host keeps it, to restore it after a reload). */
  readonly minimized?: boolean;
  /** Folds or unfolds it; without it the composer has no Minimize button. */
  readonly onMinimize?: (minimized: boolean) => void;
}

/** A bar at the bottom (minimize) or a chevron up (show again), drawn like conversation/icons.tsx. */
const MinimizeIcon = ({ up }: { up: boolean }) => (
  <svg className="tern-icon" width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d={up ? 'm6 15 6-6 6 6' : 'M6 18h12'} />
  </svg>
);

export const DEFAULT_UNDO_DELAY_MS = 5_000;
export const DEFAULT_AUTOSAVE_DELAY_MS = 1_500;

type Phase =
  | { readonly kind: 'editing' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'undoable'; readonly commandId: string }
  | { readonly kind: 'undoing' }
  | { readonly kind: 'sent' };

const TITLES: Record<ComposerInitial['mode'], string> = { new: 'New message', reply: 'Reply', replyAll: 'Reply all', forward: 'Forward' };

const toChips = (addresses: readonly Address[]) => addresses.map(chipFromAddress);

export function Composer(props: ComposerProps) {
  const { initial, accounts, onSave, onSend, onUndo, onUpload, onCancelUpload, suggest, onClose } = props;
  const undoDelayMs = props.undoDelayMs ?? DEFAULT_UNDO_DELAY_MS;
  const titleId = useId();
  const statusId = useId();

  const [accountId, setAccountId] = useState(initial.accountId);
  const [to, setTo] = useState<RecipientChip[]>(() => toChips(initial.to));
  const [cc, setCc] = useState<RecipientChip[]>(() => toChips(initial.cc));
  const [bcc, setBcc] = useState<RecipientChip[]>(() => toChips(initial.bcc));
  const [pending, setPending] = useState({ to: '', cc: '', bcc: '' });
  const [showCc, setShowCc] = useState(initial.cc.length > 0);
  const [showBcc, setShowBcc] = useState(initial.bcc.length > 0);
  const [subject, setSubject] = useState(initial.subject);
  const [bodyVersion, setBodyVersion] = useState(0);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>({ status: 'idle' });
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  // Back after a failed send: why, in the catalogue's words and the mail server's own.
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string; detail?: string } | null>(() =>
    initial.sendFailure ? { kind: 'error', text: `The message was not sent. ${initial.sendFailure.message}`, ...(initial.sendFailure.detail ? { detail: initial.sendFailure.detail } : {}) } : null,
  );
  /** The save whose gateway outcome the indicator waits for. */
  const lastSave = useRef<string | undefined>(undefined);
  const [dragging, setDragging] = useState(false);

  const editor = useRef<RichTextEditorHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);
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
  const dragDepth = useRef(0);
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
  const typePending = (field: 'to' | 'cc' | 'bcc') => (text: string) => {
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
  const autosave = useMemo(
    () =>
      new DraftAutosave({
        delayMs: props.autosaveDelayMs ?? DEFAULT_AUTOSAVE_DELAY_MS,
        save: onSave,
        onStatus: (status) => {
          if (status.status === 'saved') lastSave.current = status.commandId;
          if (mounted.current) setSaveStatus(status);
        },
        draftId: initial.draftId,
        ...(initial.revision !== undefined ? { revision: initial.revision } : {}),
      }),
    // One autosaver for the composer's life; the callbacks it holds are the first ones.
    [],
  );
  // A layout-effect cleanup runs before the editor's refs are let go, so a save still waiting reads the body as
  // typed; a passive cleanup ran after them, read an empty editor and saved an empty body over the draft.
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      autosave.dispose();
    };
  }, [autosave]);
  // A reload or a closed tab inside the quiet spell: what was typed since the last save leaves now (the
  // page is not unmounted, so dispose would not run); the reloaded tab reopens the draft with it.
  useEffect(() => {
    const onPageHide = () => {
      // In conflict nothing is scheduled, but the text must not go with the tab: it is kept as its own draft.
      if (autosave.conflict) void autosave.keepBoth().catch(() => undefined);
      else if (autosave.scheduled) void autosave.flush().catch(() => undefined);
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [autosave]);

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
      };
    },
    [accountId, to, cc, bcc, pending, subject, attachments, autosave, initial.inReplyToMessageId],
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

  // ── Send, undo, close ───────────────────────────────────────────────────────
  const commitPending = () => {
    if (pending.to.trim()) setTo((chips) => addChips(chips, parseRecipients(pending.to)));
    if (pending.cc.trim()) setCc((chips) => addChips(chips, parseRecipients(pending.cc)));
    if (pending.bcc.trim()) setBcc((chips) => addChips(chips, parseRecipients(pending.bcc)));
    setPending({ to: '', cc: '', bcc: '' });
  };

  const send = async () => {
    if (phase.kind !== 'editing') return;
    commitPending();
    const withPending = (chips: RecipientChip[], text: string) => (text.trim() ? addChips(chips, parseRecipients(text)) : chips);
    const all = [...withPending(to, pending.to), ...withPending(cc, pending.cc), ...withPending(bcc, pending.bcc)];
    const invalid = all.filter((chip) => !chip.valid);
    if (all.length === 0) {
      setNotice({ kind: 'error', text: 'Add at least one recipient.' });
      toInput.current?.focus();
      return;
    }
    if (invalid.length > 0) {
      // Nothing leaves: the first bad chip takes the focus (once typed text has become chips), its field says why.
      focusInvalidChip.current = true;
      setNotice({ kind: 'error', text: `${INVALID_ADDRESS_MESSAGE} Fix or remove ${invalid.map((chip) => `“${chip.email}”`).join(', ')}.` });
      return;
    }
    if (attachments.some((item) => item.status === 'uploading')) {
      setNotice({ kind: 'error', text: 'Wait until the attachments have finished uploading.' });
      return;
    }
    if (attachments.some((item) => item.status === 'failed')) {
      setNotice({ kind: 'error', text: 'Some attachments did not upload. Retry or remove them first.' });
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
      const { commandId } = await onSend({ accountId, draftId, delayMs: undoDelayMs, subject: draft.subject });
      if (mounted.current) setPhase({ kind: 'undoable', commandId });
    } catch (cause) {
      if (!mounted.current) return;
      setPhase({ kind: 'editing' });
      setNotice({ kind: 'error', text: `The message was not sent. ${TernError.from(cause).message}` });
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
      setNotice({ kind: 'info', text: 'Sending undone. Your message is back in the composer.' });
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
      setNotice({ kind: 'error', text: 'Attachments are still uploading. Wait for them, or cancel them, before closing.' });
      return;
    }
    const draft = worthSaving(snapshot(true));
    if (draft) {
      try {
        // Closed in conflict without a choice: this version is kept as a draft of its own.
        if (autosave.conflict) await autosave.flush(() => draft).catch(() => autosave.keepBoth());
        else await autosave.flush(() => draft);
      } catch (cause) {
        setNotice({ kind: 'error', text: `The draft could not be saved. ${TernError.from(cause).message}` });
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
    const restore: ComposerInitial = {
      mode: initial.mode,
      accountId: draft.accountId,
      to: draft.to,
      cc: draft.cc,
      bcc: draft.bcc,
      subject: draft.subject,
      html: draft.html,
      ...(draft.inReplyToMessageId ? { inReplyToMessageId: draft.inReplyToMessageId } : {}),
      attachments: attachments.filter((item) => item.status === 'done' && item.attachmentId).map((item) => ({ attachmentId: item.attachmentId as string, fileName: item.fileName, size: item.size })),
    };
    onDiscard({ draftId, restore });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (props.onDiscard && (event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'd') {
      event.preventDefault();
      void discard();
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

  // ── Drag and drop ───────────────────────────────────────────────────────────
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth.current++;
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    uploads.addFiles(Array.from(event.dataTransfer.files));
  };

  const title = subject.trim() || TITLES[initial.mode];

  if (phase.kind === 'undoable' || phase.kind === 'undoing' || phase.kind === 'sent') {
    return (
      <div className="tern-composer tern-send-toast" role="status" aria-live="polite">
        <style href="tern-composer" precedence="tern">
          {COMPOSER_CSS}
        </style>
        <span className="tern-send-toast-text">{phase.kind === 'sent' ? 'Message sent.' : phase.kind === 'undoing' ? 'Undoing…' : 'Sending…'}</span>
        {phase.kind === 'undoable' && (
          <button ref={undoButton} type="button" className="tern-link-button" onClick={() => void undo()}>
            Undo
          </button>
        )}
        {phase.kind === 'undoable' && <span className="tern-send-toast-bar" style={{ animationDuration: `${undoDelayMs}ms` }} aria-hidden="true" />}
      </div>
    );
  }

  const account = accounts.find((candidate) => candidate.accountId === accountId);
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
      onDragEnter={onDragEnter}
      onDragOver={(event) => hasFiles(event) && event.preventDefault()}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <style href="tern-composer" precedence="tern">
        {COMPOSER_CSS}
      </style>
      <header className="tern-composer-header">
        {/* Minimized, the title bar unfolds it on a click too (the Show button is the keyboard's way). */}
        <h2 id={titleId} className="tern-composer-title" onClick={props.minimized ? () => props.onMinimize?.(false) : undefined}>
          {title}
        </h2>
        <SaveIndicatorView id={statusId} indicator={indicator} />
        {props.onMinimize && (
          <button
            type="button"
            className="tern-icon-button"
            aria-label={props.minimized ? 'Show the composer' : 'Minimize the composer'}
            aria-expanded={!props.minimized}
            title={props.minimized ? 'Show' : 'Minimize'}
            onClick={() => props.onMinimize?.(!props.minimized)}
          >
            <MinimizeIcon up={Boolean(props.minimized)} />
          </button>
        )}
        <button type="button" className="tern-icon-button" aria-label="Close and keep the draft" title="Close (Esc)" onClick={() => void close()}>
          <CloseIcon />
        </button>
      </header>

      {conflict && <ConflictBar conflict={conflict} busy={resolving} onKeepBoth={keepBoth} onUseOther={useOther} />}

      <div className="tern-composer-fields">
        <div className="tern-from-row">
          <label className="tern-field-label" htmlFor={`${titleId}-from`}>
            From
          </label>
          {accounts.length > 1 ? (
            <select id={`${titleId}-from`} className="tern-from-select" value={accountId} onChange={(event) => changeAccount(event.target.value)}>
              {accounts.map((candidate) => (
                <option key={candidate.accountId} value={candidate.accountId}>
                  {candidate.name ? `${candidate.name} <${candidate.email}>` : candidate.email}
                </option>
              ))}
            </select>
          ) : (
            <output id={`${titleId}-from`} className="tern-from-static">
              {account ? (account.name ? `${account.name} <${account.email}>` : account.email) : ''}
            </output>
          )}
        </div>
        <div className="tern-recipient-row">
          <RecipientField
            label="To"
            chips={to}
            onChange={edited(setTo)}
            text={pending.to}
            onTextChange={typePending('to')}
            suggest={suggest}
            autoFocus={initial.mode === 'new' || initial.mode === 'forward'}
            inputRef={(input) => (toInput.current = input)}
          />
          <span className="tern-cc-toggles">
            {!showCc && (
              <button type="button" className="tern-link-button" onClick={() => setShowCc(true)} aria-label="Add Cc recipients">
                Cc
              </button>
            )}
            {!showBcc && (
              <button type="button" className="tern-link-button" onClick={() => setShowBcc(true)} aria-label="Add Bcc recipients">
                Bcc
              </button>
            )}
          </span>
        </div>
        {showCc && (
          <div className="tern-recipient-row">
            <RecipientField label="Cc" chips={cc} onChange={edited(setCc)} text={pending.cc} onTextChange={typePending('cc')} suggest={suggest} autoFocus={cc.length === 0 && initial.cc.length === 0} />
          </div>
        )}
        {showBcc && (
          <div className="tern-recipient-row">
            <RecipientField label="Bcc" chips={bcc} onChange={edited(setBcc)} text={pending.bcc} onTextChange={typePending('bcc')} suggest={suggest} autoFocus={bcc.length === 0 && initial.bcc.length === 0} />
          </div>
        )}
        <div className="tern-subject-row">
          <label className="tern-field-label" htmlFor={`${titleId}-subject`}>
            Subject
          </label>
          <input ref={subjectInput} id={`${titleId}-subject`} className="tern-subject" type="text" value={subject} onChange={(event) => edited(setSubject)(event.target.value)} />
        </div>
      </div>

      <RichTextEditor
        handleRef={editor}
        initialHtml={sentBody.current ?? initial.html}
        onInput={() => {
          touch();
          setBodyVersion((version) => version + 1);
        }}
        onPasteFiles={(pasted) => uploads.addFiles(pasted)}
      />

      <UploadList uploads={uploads} />

      {notice && (
        <p className={`tern-composer-notice is-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
          {notice.detail && (
            <>
              <br />
              <span className="tern-server-reply">The mail server answered: “{notice.detail}”</span>
            </>
          )}
        </p>
      )}

      <footer className="tern-composer-footer">
        <button type="submit" className="tern-button tern-button-primary tern-send" disabled={phase.kind === 'sending'} title="Send (Ctrl+Enter)">
          <SendIcon /> {phase.kind === 'sending' ? 'Sending…' : 'Send'}
        </button>
        <button type="button" className="tern-icon-button" aria-label="Attach files" title="Attach files" onClick={() => fileInput.current?.click()}>
          <PaperclipIcon />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Choose files to attach"
          onChange={(event) => {
            uploads.addFiles(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
        {uploading.length > 0 && <span className="tern-footer-hint">Uploading {uploading.length === 1 ? '1 file' : `${uploading.length} files`}…</span>}
        {indicator.kind === 'failed' && (
          // Refused here or given up by the engine: the text is still in the composer, saved again on Retry.
          <span className="tern-footer-hint is-error">
            Draft not saved: {indicator.reason}{' '}
            <button type="button" className="tern-link-button" onClick={() => void autosave.retry(() => worthSaving(snapshot())).catch(() => undefined)}>
              Retry
            </button>
          </span>
        )}
        {/* At the far end, away from Send (inline: the composer's styles are another change's). */}
        {props.onDiscard && (
          <button type="button" className="tern-icon-button tern-discard" style={{ marginInlineStart: 'auto' }} aria-label="Discard draft" aria-keyshortcuts="Control+Shift+D" title="Discard draft (Ctrl+Shift+D)" onClick={() => void discard()}>
            <TrashIcon />
          </button>
        )}
      </footer>
      {dragging && (
        <div className="tern-drop-overlay" aria-hidden="true">
          <PaperclipIcon size={28} />
          <span>Drop files to attach</span>
        </div>
      )}
    </form>
  );
}

export default Composer;
