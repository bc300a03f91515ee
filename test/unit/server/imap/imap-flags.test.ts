// IMAP flags and attributes compare case-insensitively: Cyrus lists `\sent`, `\archive`.
import type { ListResponse } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { canonicalFlag, hasFlag, sameFlag, specialUseAttribute } from '../../../../src-server/imap/imap-flags';
import { folderListings } from '../../../../src-server/mirror/folder-sweep';
import { toMessageMeta } from '../../../../src-server/mirror/materialize';
import { storedFlags } from '../../../../src-server/mirror/message-record';
import type { MessageRow } from '../../../../src-server/mirror/mirror-rows';

/** A LIST entry as imapflow hands it over; `specialUse` is imapflow's own reading (it knows only `\Sent`, else guesses from the name). */
function entry(path: string, flags: string[], specialUse?: string): ListResponse {
  return { path, name: path.split('/').at(-1)!, parentPath: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '', delimiter: '/', flags: new Set(flags), specialUse, listed: true, subscribed: true } as unknown as ListResponse;
}

describe('comparing flags', () => {
  test('any spelling is the same flag', () => {
    expect(sameFlag('\\sent', '\\Sent')).toBe(true);
    expect(sameFlag('\\JUNK', '\\Junk')).toBe(true);
    expect(sameFlag('\\Sent', '\\Seen')).toBe(false);
    expect(hasFlag(new Set(['\\HasNoChildren', '\\archive']), '\\Archive')).toBe(true);
    expect(hasFlag(['\\NOSELECT'], '\\Noselect')).toBe(true);
    expect(hasFlag(['$Junk'], '\\Junk')).toBe(false);
  });

  test('system flags get RFC 3501 spelling, keywords stay as sent', () => {
    expect(['\\seen', '\\FLAGGED', '\\answered', '\\draft', '\\Deleted'].map(canonicalFlag)).toEqual(['\\Seen', '\\Flagged', '\\Answered', '\\Draft', '\\Deleted']);
    expect(canonicalFlag('$Forwarded')).toBe('$Forwarded');
  });

  test('special-use attributes in any case name the role', () => {
    expect(specialUseAttribute(['\\HasNoChildren', '\\sent'])).toBe('sent');
    expect(specialUseAttribute(new Set(['\\Archive']))).toBe('archive');
    expect(specialUseAttribute(['\\JUNK'])).toBe('junk');
    expect(specialUseAttribute(['\\drafts'])).toBe('drafts');
    expect(specialUseAttribute(['\\HasChildren'])).toBeNull();
  });
});

describe('folder roles from a Cyrus LIST', () => {
  test('a lower-case attribute on a folder imapflow cannot name gives the role', () => {
    const listings = folderListings([entry('INBOX', ['\\HasNoChildren'], '\\Inbox'), entry('Outgoing', ['\\HasNoChildren', '\\sent']), entry('Old mail', ['\\archive']), entry('Bulk', ['\\JUNK'])]);
    expect(listings.map((listing) => [listing.path, listing.specialUse])).toEqual([
      ['INBOX', 'inbox'],
      ['Outgoing', 'sent'],
      ['Old mail', 'archive'],
      ['Bulk', 'junk'],
    ]);
  });

  test("the server's attribute beats imapflow's guess from another folder's name", () => {
    const listings = folderListings([entry('Sent', ['\\HasNoChildren'], '\\Sent'), entry('Sent Messages', ['\\sent'])]);
    expect(listings.find((listing) => listing.path === 'Sent Messages')?.specialUse).toBe('sent');
    expect(listings.find((listing) => listing.path === 'Sent')?.specialUse).toBeNull();
  });

  test('a name guess still counts on a server without SPECIAL-USE', () => {
    expect(folderListings([entry('Trash', [], '\\Trash')])[0]?.specialUse).toBe('trash');
  });
});

describe('message flags in the mirror', () => {
  test('a lower-case \\seen, \\flagged, \\answered, \\draft mean read, starred, answered, draft', () => {
    const flags = storedFlags(new Set(['\\seen', '\\flagged', '\\Recent', '\\recent']));
    expect(flags).toEqual(['\\Flagged', '\\Seen']);
    const row = { flags: JSON.stringify(['\\seen', '\\FLAGGED', '\\answered', '\\DRAFT']) } as Partial<MessageRow>;
    const meta = toMessageMeta({ id: 1, thread_id: 1, folder_id: 1, from_json: '[]', to_json: '[]', cc_json: '[]', reply_to_json: '[]', attachments_json: '[]', ...row } as MessageRow);
    expect(meta.unread).toBe(false);
    expect(meta.starred).toBe(true);
    expect(meta.answered).toBe(true);
    expect(meta.draft).toBe(true);
  });
});
