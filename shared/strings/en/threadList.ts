/** The thread list (src-ui/thread-list/): rows, select-all banner. */
export const threadList = {
  conversations: 'conversations',
  progress: '{done} of {count, plural, one {# conversation} other {# conversations}}',
  progressLabel: '{verb} conversations',
  searchCut: 'Showing the newest {count, plural, one {# match} other {# matches}}; older ones are left out. Add words or operators (from:, before:) to narrow the search.',
  searchTheServer: 'Search the server for more',
  serverResults: 'Results of the server’s search, which also reads the text of every message.',
  pageSelected: 'All {count, plural, one {# conversation} other {# conversations}} on this page are selected.',
  selectAllIn: 'Select all {count, plural, one {# conversation} other {# conversations}} in {folder}',
  allSelected: 'All {count, plural, one {# conversation} other {# conversations}} in {folder} are selected.',
  clearSelection: 'Clear selection',
  draft: 'Draft',
  /** A scheduled message that left late (the gateway was down at its time). */
  sentLate: 'Sent late',
  starred: 'Starred',
  hasAttachments: 'Has attachments',
  savingChanges: 'Saving changes',
  inAccount: 'in {account}',
  toNobody: 'To: (no recipients)',
  toNames: 'To: {names}',
  loadingConversation: 'Loading conversation',
};
