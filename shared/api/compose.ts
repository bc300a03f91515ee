import * as z from 'zod';
import { MAX_UNDO_HOLD_MS, scheduleSchema } from '../send-time';
import { emailSchema } from './account';

/**
 * Writing mail: drafts, uploads and send (issue "Gateway" point 8). The size and file-name
 * rules live here so the composer can check them before an upload and the gateway
 * enforces the same numbers.
 */

const MB = 1024 * 1024;
/** One attachment, as uploaded. */
export const MAX_ATTACHMENT_BYTES = 25 * MB;
/** Everything a message carries (bodies plus attachments, before MIME encoding). */
export const MAX_MESSAGE_BYTES = 25 * MB;
/** The assembled MIME message: base64 grows attachments by a third, plus headers and line ends. */
export const MAX_RAW_MESSAGE_BYTES = Math.ceil(MAX_MESSAGE_BYTES * 1.37) + MB;
/** Files per upload request and attachments per message. */
export const MAX_ATTACHMENTS = 50;

/** Spec §5: characters a file name may not contain. */
export const ILLEGAL_FILE_NAME_CHARS = ['\\', '/', ':', '|', '?', '*', '>', '<', '"', '#'] as const;

/**
 * Extensions refused as attachments: what Windows, macOS or a JVM runs on a double click
 * (the list big webmails block, e.g. Gmail's), so a mail cannot carry a program to launch.
 */
export const BLOCKED_EXTENSIONS: ReadonlySet<string> = new Set([
  'ade', 'adp', 'apk', 'app', 'appx', 'appxbundle', 'bat', 'cab', 'chm', 'cmd', 'com', 'cpl', 'diagcab', 'diagcfg',
  'diagpack', 'dll', 'dmg', 'ex_', 'exe', 'gadget', 'hta', 'inf', 'ins', 'iso', 'isp', 'jar', 'jnlp', 'js', 'jse',
  'lib', 'lnk', 'mde', 'msc', 'msi', 'msix', 'msixbundle', 'msp', 'mst', 'nsh', 'pif', 'ps1', 'psm1', 'reg', 'scf',
  'scr', 'sct', 'shb', 'sys', 'vb', 'vbe', 'vbs', 'vhd', 'vxd', 'ws', 'wsc', 'wsf', 'wsh', 'xll',
]);

const MAX_FILE_NAME_LENGTH = 200;

/**
 * A file name safe to show, store and put in a MIME header: the spec's illegal characters
 * and control characters become `_`, surrounding spaces and dots go (Windows drops trailing
 * dots, so `x.exe.` would run as `x.exe`), and a long name is cut keeping its extension.
 */
export function sanitizeFileName(name: string): string {
  let clean = [...name.normalize('NFC')]
    .map((char) => ((ILLEGAL_FILE_NAME_CHARS as readonly string[]).includes(char) || /\p{Cc}|\p{Cf}/u.test(char) ? '_' : char))
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (clean.length > MAX_FILE_NAME_LENGTH) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
    clean = clean.slice(0, MAX_FILE_NAME_LENGTH - ext.length).trimEnd() + ext;
  }
  return clean || 'attachment';
}

/** The last extension, lowercased ('' when none): `report.pdf.exe` → `exe`. */
export function extensionOf(fileName: string): string {
  const base = fileName.replace(/[\s.]+$/, '');
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Whether the (sanitised) name may be attached. */
export function isAllowedAttachmentName(fileName: string): boolean {
  return !BLOCKED_EXTENSIONS.has(extensionOf(fileName));
}

/** Ids of the gateway's objects are decimal strings of row ids. */
export const objectIdSchema = z.string().regex(/^[1-9]\d{0,15}$/, 'Not an id.');
/** Upload ids are random hex. */
export const uploadIdSchema = z.string().regex(/^[a-f0-9]{32}$/, 'Not an upload id.');
/** A Message-ID header value, angle brackets included. */
export const messageIdHeaderSchema = z.string().regex(/^<[^<>\s]{1,250}>$/, 'Not a Message-ID.');

/** No line breaks in header values a person typed: they would end the header. */
const oneLine = (max: number) => z.string().max(max).transform((text) => text.replace(/[\r\n\t]+/g, ' '));

/** A recipient: "a@b.c" or { name, email }; always normalised to { name, email }. */
export const recipientSchema = z
  .union([emailSchema, z.object({ name: oneLine(200).default(''), email: emailSchema })])
  .transform((value) => (typeof value === 'string' ? { name: '', email: value } : { name: value.name.trim(), email: value.email }));
export type Recipient = z.output<typeof recipientSchema>;

const recipients = z.array(recipientSchema).max(500).default([]);

/** What a person writes: the body of a draft save and of a direct send. */
export const composeFieldsSchema = z.object({
  /** Defaults to the account's address; another address is refused (no aliases yet). */
  from: recipientSchema.optional(),
  to: recipients,
  cc: recipients,
  bcc: recipients,
  subject: oneLine(998).default(''),
  html: z.string().max(MAX_MESSAGE_BYTES).optional(),
  text: z.string().max(MAX_MESSAGE_BYTES).optional(),
  /** Id of the message this replies to (MessageMeta.id): In-Reply-To and References come from it. */
  inReplyTo: objectIdSchema.optional(),
  /** Message-IDs for References when no parent is given (e.g. a message not mirrored). */
  references: z.array(messageIdHeaderSchema).max(100).optional(),
  attachmentIds: z.array(uploadIdSchema).max(MAX_ATTACHMENTS).default([]),
});
export type ComposeFields = z.output<typeof composeFieldsSchema>;

/** POST /api/drafts and PUT /api/drafts/:id. */
export const draftSaveSchema = composeFieldsSchema.extend({
  /** The version the client last saw: 0 for a new draft, then what the last save answered. */
  version: z.number().int().nonnegative(),
  /** Optional id the client made for a new draft: a retried create answers DraftAlreadyCreated instead of a second draft. */
  clientId: z.string().regex(/^[\w.:-]{1,64}$/).optional(),
});
export type DraftSave = z.output<typeof draftSaveSchema>;

export const draftSavedSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  /** The draft's message in the Drafts folder (MessageMeta.id), once mirrored. */
  messageId: z.string().nullable(),
  messageIdHeader: z.string(),
  /** The account's latest transaction after the save; the mirror holds the new version at this id. */
  latestTxnId: z.number().int(),
});
export type DraftSaved = z.infer<typeof draftSavedSchema>;

export const uploadedFileSchema = z.object({ id: z.string(), filename: z.string(), size: z.number().int(), contentType: z.string() });
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** GET /api/drafts/:id */
export const draftViewSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  state: z.enum(['open', 'sending', 'sent', 'deleted']),
  from: z.object({ name: z.string(), email: z.string() }).nullable(),
  to: z.array(z.object({ name: z.string(), email: z.string() })),
  cc: z.array(z.object({ name: z.string(), email: z.string() })),
  bcc: z.array(z.object({ name: z.string(), email: z.string() })),
  subject: z.string(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  attachments: z.array(uploadedFileSchema),
  messageId: z.string().nullable(),
  updatedAt: z.number().int(),
});
export type DraftView = z.infer<typeof draftViewSchema>;

/** POST /api/files → the stored files, in upload order. */
export const uploadResponseSchema = z.object({ files: z.array(uploadedFileSchema) });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** POST /api/send: a saved draft or a whole message, and a key that makes retries safe. */
export const sendRequestSchema = z
  .object({
    /** Made by the client once per message; a retry with the same key returns the first send's outcome. */
    idempotencyKey: z.string().regex(/^[\w.:-]{8,128}$/, 'Use 8 to 128 letters, digits, _ . : or -.'),
    draftId: objectIdSchema.optional(),
    /** When given, the draft must still be at this version (InvalidDraftVersion otherwise). */
    draftVersion: z.number().int().positive().optional(),
    compose: composeFieldsSchema.optional(),
    /** The undo window (ms): the gateway holds the message this long; POST /api/outbox/:id/undo takes it back meanwhile. */
    holdMs: z.number().int().min(0).max(MAX_UNDO_HOLD_MS).optional(),
    /** Send later: a wall-clock time in an IANA zone (shared/send-time.ts); it joins the Scheduled list until then. */
    schedule: scheduleSchema.optional(),
    /** Ask for a read receipt (RFC 8098): the message carries Disposition-Notification-To with its From address. */
    requestReceipt: z.boolean().optional(),
  })
  .refine((body) => (body.draftId === undefined) !== (body.compose === undefined), { message: 'Give either draftId or compose.' })
  .refine((body) => body.holdMs === undefined || body.schedule === undefined, { message: 'Give either holdMs or schedule.' });
export type SendRequest = z.output<typeof sendRequestSchema>;

/**
 * `unknown`: the gateway stopped after the message's final "." went to the SMTP server and
 * before the server's reply came back, so nobody knows whether it was taken. Such a message
 * is never resent on its own: the person is told it may have been sent and decides.
 */
export const OUTBOX_STATES = ['queued', 'sending', 'accepted', 'sent', 'failed', 'unknown', 'cancelled'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export const sendResultSchema = z.object({
  outboxId: z.string(),
  /** `sent` (also in Sent), `accepted` (SMTP took it, filing pending), `queued`/`sending` (will be retried), `failed`. */
  state: z.enum(OUTBOX_STATES),
  messageIdHeader: z.string(),
  /** Recipients the SMTP server refused while accepting others. */
  rejected: z.array(z.string()),
  latestTxnId: z.number().int(),
  /** The last attempt's failure, for a send that is queued for a retry. */
  lastError: z.string().nullable(),
  /**
   * The copy in the Sent folder: `pending` until filed (retried), `filed`, or `failed` when
   * every retry failed — the message went out but Sent lacks it, and the person is told.
   * Absent from gateways older than this field.
   */
  sentCopy: z.enum(['pending', 'filed', 'failed']).optional(),
  /** A held or scheduled send: when it leaves (epoch ms UTC). Until then undo/cancel take it back. */
  sendAt: z.number().int().nullable().optional(),
  /** A scheduled send (it shows in the Scheduled list), not an undo hold. */
  scheduled: z.boolean().optional(),
  /** A scheduled send that left more than SENT_LATE_AFTER_MS after its time (the gateway was down). */
  sentLate: z.boolean().optional(),
});
export type SendResult = z.infer<typeof sendResultSchema>;

/** One send waiting on the gateway (held for undo, or scheduled): the Scheduled list and the undo toasts of every tab. */
export const pendingSendSchema = z.object({
  outboxId: z.string(),
  /** The gateway's draft it was sent from (back to a draft on cancel); null for a direct send. */
  draftId: z.string().nullable(),
  sendAt: z.number().int(),
  /** The zone the time was chosen in (null for an undo hold). */
  timeZone: z.string().nullable(),
  scheduled: z.boolean(),
  /** `queued` until it leaves; `sending` while the mail server takes it. */
  state: z.enum(OUTBOX_STATES),
  subject: z.string(),
  to: z.array(z.string()),
});
export type PendingSend = z.infer<typeof pendingSendSchema>;

/** GET /api/scheduled, and the delta's `scheduled` document: the account's waiting sends, soonest first. */
export const pendingSendsSchema = z.object({ sends: z.array(pendingSendSchema) });
export type PendingSends = z.infer<typeof pendingSendsSchema>;

/** POST /api/outbox/:id/undo, POST /api/scheduled/:id/cancel: the send taken back; its draft is open again. */
export const cancelledSendSchema = z.object({ outboxId: z.string(), draftId: z.string().nullable(), latestTxnId: z.number().int() });
export type CancelledSend = z.infer<typeof cancelledSendSchema>;
