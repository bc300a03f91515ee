/**
 * Thread and Message as stored locally, with the indexed columns of the mail schema
 * (db/mail-schema.ts). Their fields follow the gateway's ThreadSummary and MessageMeta
 * (shared/api/mail.ts); the sync maps one to the other.
 */
import type { Address } from '../../shared/api/mail';
import { bitset, boolean, collection, datetime, joined, number, object, serverId, string } from './attributes';
import { hashMessageIdHeader } from './message-id-hash';
import { defineModel, type ModelValue } from './model';

/** `[categoryId, epochMs]` entries: one folder's or label's list, newest first, from one index. */
const timestamps = (ids: readonly string[], at: Date | null) => (at ? ids.map((id) => [id, at.getTime()]) : []);

export const ThreadModel = defineModel({
  table: 'Thread',
  object: 'thread',
  attributes: {
    subject: string('subject'),
    snippet: string('snippet'),
    participants: collection<Address>('participants'),
    lastMessageReceivedAt: datetime('last_message_received_timestamp'),
    messageCount: number('message_count'),
    unreadCount: number('unread_count'),
    starred: boolean('starred'),
    hasAttachments: boolean('has_attachments'),
    folderIds: collection<string>('folder_ids'),
    labelIds: collection<string>('label_ids'),
    emailLabels: collection<string>('email_labels'),
    messageIds: collection<string>('message_ids'),
    /** A local change waits for the server. */
    needSync: boolean('needSync'),
  },
  computed: {
    category_timestamps: (thread) => timestamps(thread.folderIds, thread.lastMessageReceivedAt),
    label_timestamps: (thread) => timestamps(thread.labelIds, thread.lastMessageReceivedAt),
    email_label_timestamps: (thread) => timestamps(thread.emailLabels, thread.lastMessageReceivedAt),
  },
});
export type Thread = ModelValue<'thread', typeof ThreadModel.attributes>;

export const MESSAGE_FLAGS = ['unread', 'starred', 'answered', 'draft'] as const;

export const MessageModel = defineModel({
  table: 'Message',
  object: 'message',
  attributes: {
    threadId: string('thread_id'),
    folderId: string('folder_id'),
    messageIdHeader: string('message_id_header'),
    subject: string('subject'),
    from: collection<Address>('from'),
    to: collection<Address>('to'),
    cc: collection<Address>('cc'),
    date: datetime('date'),
    receivedAt: datetime('received_at'),
    flags: bitset('flags', MESSAGE_FLAGS),
    emailLabels: collection<string>('email_labels'),
    /** The server's id of the draft this message was saved as. */
    draftServerId: serverId('draft_server_id'),
    snippet: string('snippet'),
    pluginData: object<Record<string, unknown>>('plugin_data'),
    needSync: boolean('needSync'),
    /** The parsed body, in MessageBody; loaded when a message is opened. */
    body: joined<{ readonly html: string | null; readonly text: string | null }>('MessageBody'),
  },
  computed: {
    message_id_header_hash: (message) => hashMessageIdHeader(message.messageIdHeader),
  },
});
export type Message = ModelValue<'message', typeof MessageModel.attributes>;
