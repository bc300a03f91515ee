/** Names of the special folders, whatever the server calls them. */
export const folders = {
  inbox: 'Inbox',
  snoozed: 'Snoozed',
  flagged: 'Starred',
  drafts: 'Drafts',
  sent: 'Sent',
  archive: 'Archive',
  all: 'All mail',
  junk: 'Spam',
  trash: 'Trash',
  allOf:
    '{role, select, inbox {All inboxes} snoozed {Snoozed} flagged {All starred} drafts {All drafts} sent {All sent} archive {All archive} all {All all mail} junk {All spam} other {All trash}}',
};
