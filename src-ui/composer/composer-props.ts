/** What the composer is given: its opening content, the accounts, and the engine's callbacks (the shell wires them to src-ui/state). */
import type { Schedule } from '../../shared/send-time';
import type { Address } from '../../shared/api/mail';
import type { CommandStatus, DraftInput, DraftSaveReceipt, SuggestedAddress } from '../../shared/worker-mail-api';
import type { ComposerInitial } from './compose-initial';
import type { UploadFunction } from './use-attachment-uploads';
import type { ComposerWriting } from './ComposerTemplates';

/** A From the message can be sent from: an account's own address or one of its identities (aliases). */
export interface ComposerAccount {
  readonly accountId: string;
  /** The identity (shared/identities.ts); absent: the account's own address. */
  readonly identityId?: string;
  readonly name: string;
  readonly email: string;
  /** The account's default identity (a new message starts from it). */
  readonly isDefault?: boolean;
  /** Its signature (untrusted HTML, sanitised on insertion); '' or absent: none. */
  readonly signatureHtml?: string;
  /** Whether replies and forwards get the signature too. */
  readonly signatureOnReplies?: boolean;
}

export interface ComposerProps {
  /** What the composer opens with (composeNew / composeFromMessage / composeFromMailto, or a restored draft). */
  readonly initial: ComposerInitial;
  /** Every From the user may send as (each account's identities), for the From choice. */
  readonly accounts: readonly ComposerAccount[];
  /** MailCommandService.saveDraft: creates or updates the draft; resolves with its id (and its revision and command). */
  readonly onSave: (draft: DraftInput) => Promise<DraftSaveReceipt>;
  /** MailCommandService.send with the undo window (`subject` names it on a notice if it fails). */
  readonly onSend: (params: { accountId: string; draftId: string; delayMs: number; subject?: string; schedule?: Schedule }) => Promise<{ commandId: string }>;
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
  readonly suggest: (prefix: string) => Promise<readonly SuggestedAddress[]>;
  /** Takes an address out of the suggestions (ContactsService.forgetSuggestion); absent: no remove control. */
  readonly forgetSuggestion?: (email: string) => void;
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
  /** Templates and Insert HTML (ComposerTemplates.tsx); absent: no Templates menu. */
  readonly writing?: ComposerWriting;
}

export const DEFAULT_UNDO_DELAY_MS = 5_000;
export const DEFAULT_AUTOSAVE_DELAY_MS = 1_500;
