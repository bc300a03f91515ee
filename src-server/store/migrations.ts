/**
 * The gateway's schema, one entry per version; `openDatabase` applies the ones a database
 * has not seen. Never edit a shipped entry: add a new one. The SQL sticks to what SQLite
 * and PostgreSQL share, so the store can move to PostgreSQL (DESIGN §7).
 */
export const MIGRATIONS: readonly string[] = [
  /* 1: accounts, sessions, mirror, transaction log */ `
  CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL DEFAULT '',
    imap_host     TEXT NOT NULL,
    imap_port     INTEGER NOT NULL,
    imap_security TEXT NOT NULL,          -- 'tls' | 'starttls' | 'none'
    smtp_host     TEXT NOT NULL,
    smtp_port     INTEGER NOT NULL,
    smtp_security TEXT NOT NULL,
    secret        BLOB NOT NULL,          -- the password, AES-256-GCM (crypto/secret-box.ts)
    latest_txn_id INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
  );
  CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,        -- sha256 of the token: a leaked database grants no session
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_account ON sessions(account_id);
  CREATE TABLE folders (
    id             INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids go to clients (identity column on PostgreSQL)
    account_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    path           TEXT NOT NULL,
    name           TEXT NOT NULL,
    parent_path    TEXT,
    delimiter      TEXT NOT NULL DEFAULT '/',
    special_use    TEXT,
    uidvalidity    INTEGER,
    uidnext        INTEGER,
    highest_modseq TEXT,                  -- 64-bit, kept as text
    backfilled_to  INTEGER,               -- lowest UID mirrored so far (newest first)
    UNIQUE (account_id, path)
  );
  CREATE TABLE threads (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    subject_key TEXT NOT NULL,            -- normalised subject, for the fallback match
    last_at     INTEGER NOT NULL
  );
  CREATE INDEX threads_subject ON threads(account_id, subject_key, last_at);
  CREATE TABLE thread_refs (
    account_id INTEGER NOT NULL,
    message_id_header TEXT NOT NULL,
    thread_id  INTEGER NOT NULL,
    PRIMARY KEY (account_id, message_id_header)
  );
  CREATE TABLE messages (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    folder_id         INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
    uid               INTEGER NOT NULL,
    thread_id         INTEGER NOT NULL,
    message_id_header TEXT,
    in_reply_to       TEXT,
    subject           TEXT NOT NULL DEFAULT '',
    from_json         TEXT NOT NULL DEFAULT '[]',
    to_json           TEXT NOT NULL DEFAULT '[]',
    cc_json           TEXT NOT NULL DEFAULT '[]',
    reply_to_json     TEXT NOT NULL DEFAULT '[]',
    date              INTEGER NOT NULL,
    received_at       INTEGER NOT NULL,
    flags             TEXT NOT NULL DEFAULT '[]',
    size              INTEGER NOT NULL DEFAULT 0,
    attachments_json  TEXT NOT NULL DEFAULT '[]',
    snippet           TEXT NOT NULL DEFAULT '',
    modseq            TEXT,
    UNIQUE (folder_id, uid)
  );
  CREATE INDEX messages_folder_time ON messages(folder_id, received_at);
  CREATE INDEX messages_thread ON messages(thread_id);
  CREATE INDEX messages_msgid ON messages(account_id, message_id_header);
  CREATE TABLE txlog (
    account_id INTEGER NOT NULL,
    id         INTEGER NOT NULL,
    object     TEXT NOT NULL,             -- 'folder' | 'message' | 'thread'
    object_id  INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  `,
  /* 2: what the mirror's threading and folder counts need */ `
  ALTER TABLE threads ADD COLUMN first_at INTEGER NOT NULL DEFAULT 0;
  -- 1 while a thread holds only replies that had no References/In-Reply-To: the one case where a
  -- later root message may join it by subject (mirror/threading.ts).
  ALTER TABLE threads ADD COLUMN awaits_root INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE messages ADD COLUMN unseen INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX thread_refs_thread ON thread_refs(thread_id);
  CREATE INDEX messages_folder_unseen ON messages(folder_id, unseen);
  `,
  /* 3: uploads, drafts and the outbox (writing and sending mail) */ `
  CREATE TABLE uploads (
    id           TEXT PRIMARY KEY,        -- 128 random bits: also the file's name under <dataDir>/uploads
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    filename     TEXT NOT NULL,           -- sanitised (spec §5)
    content_type TEXT NOT NULL,
    size         INTEGER NOT NULL,
    created_at   INTEGER NOT NULL
  );
  CREATE INDEX uploads_created ON uploads(created_at);
  CREATE TABLE drafts (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id         INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    client_id          TEXT,              -- the client's id for a new draft: a retried create is recognised
    version            INTEGER NOT NULL,
    state              TEXT NOT NULL,     -- 'open' | 'sending' | 'sent' | 'deleted'
    message_id_header  TEXT NOT NULL,     -- the same for every version, so all of them can be found in Drafts
    folder_path        TEXT,
    uid                INTEGER,           -- the current version's UID in folder_path
    fields_json        TEXT NOT NULL,     -- what the person typed: the durable copy, whatever IMAP does
    parent_id          INTEGER,           -- messages.id replied to
    in_reply_to_header TEXT,
    references_json    TEXT NOT NULL DEFAULT '[]',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    UNIQUE (account_id, client_id)
  );
  CREATE TABLE draft_attachments (
    draft_id  INTEGER NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
    upload_id TEXT NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    PRIMARY KEY (draft_id, upload_id)
  );
  CREATE INDEX draft_attachments_upload ON draft_attachments(upload_id);
  CREATE TABLE outbox (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    idempotency_key   TEXT NOT NULL,
    request_hash      TEXT NOT NULL,      -- a reused key with another message is refused
    draft_id          INTEGER,
    parent_id         INTEGER,            -- messages.id replied to: flagged \\Answered after the send
    message_id_header TEXT NOT NULL,      -- fixed before the first attempt: how Sent is searched
    envelope_json     TEXT NOT NULL,      -- {from, to[]}, Bcc recipients included
    raw               BLOB NOT NULL,      -- exactly what SMTP gets (no Bcc header)
    sent_copy         BLOB,               -- the Sent folder's copy when it differs (keeps Bcc); NULL: raw
    upload_ids_json   TEXT NOT NULL DEFAULT '[]',
    state             TEXT NOT NULL,      -- 'queued' | 'sending' | 'accepted' | 'sent' | 'failed'
    attempts          INTEGER NOT NULL DEFAULT 0,
    filing_attempts   INTEGER NOT NULL DEFAULT 0,
    next_attempt_at   INTEGER NOT NULL,
    smtp_json         TEXT,               -- the server's answer: {response, accepted[], rejected[]}
    last_error        TEXT,
    error_json        TEXT,               -- why the send failed for good
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    UNIQUE (account_id, idempotency_key)
  );
  CREATE INDEX outbox_due ON outbox(state, next_attempt_at);
  `,
  /* 4: search — full-text index of mirrored messages, cached parsed bodies (src-server/search, src-server/reading) */ `
  -- SQLite FTS5; on PostgreSQL this is a tsvector column with a GIN index, kept by the same triggers' logic.
  -- rowid = messages.id. People are flattened to "name email" words; body holds the words of bodies read so far.
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    subject, sender, recipients, snippet, body,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  );
  INSERT INTO messages_fts (rowid, subject, sender, recipients, snippet, body)
    SELECT m.id, m.subject,
      (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '') FROM json_each(m.from_json) a),
      (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '')
         FROM (SELECT value FROM json_each(m.to_json) UNION ALL SELECT value FROM json_each(m.cc_json)) a),
      m.snippet, ''
    FROM messages m;
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, subject, sender, recipients, snippet, body) VALUES (
      new.id, new.subject,
      (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '') FROM json_each(new.from_json) a),
      (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '')
         FROM (SELECT value FROM json_each(new.to_json) UNION ALL SELECT value FROM json_each(new.cc_json)) a),
      new.snippet, '');
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
  END;
  -- Flag and thread changes touch none of these columns, so they cost the index nothing.
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF subject, from_json, to_json, cc_json, snippet ON messages BEGIN
    UPDATE messages_fts SET
      subject = new.subject,
      sender = (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '') FROM json_each(new.from_json) a),
      recipients = (SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '')
         FROM (SELECT value FROM json_each(new.to_json) UNION ALL SELECT value FROM json_each(new.cc_json)) a),
      snippet = new.snippet
    WHERE rowid = new.id;
  END;
  CREATE TABLE message_bodies (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL,
    body_json  TEXT NOT NULL,             -- the MessageBody reply as sent
    cached_at  INTEGER NOT NULL
  );
  CREATE INDEX message_bodies_age ON message_bodies(account_id, cached_at);
  `,
  /* 5: analytics events received from the worker's queues (spec §7 addEvents / addPreAuthEvents) */ `
  CREATE TABLE analytics_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER,                  -- null for pre-login events
    entity_id   TEXT,                     -- who, before login (the device id)
    event_id    TEXT NOT NULL,
    event_name  TEXT NOT NULL,
    event_ts    INTEGER NOT NULL,
    attrs       TEXT NOT NULL,            -- JSON
    hattrs      TEXT NOT NULL,            -- JSON
    client      TEXT,                     -- JSON of the client description header
    received_at INTEGER NOT NULL,
    UNIQUE (event_id)                     -- a retried batch stores each event once
  );
  CREATE INDEX analytics_events_account ON analytics_events(account_id, event_ts);
  `,
  /* 6: search index v2 — the triggers of 4 only queue; search/fts-indexer.ts indexes in bulk */ `
  -- An FTS5 write inside a trigger flushes the index on every row: with 4's triggers (and its
  -- prefix indexes) each mirrored message cost about 3× as much to write. Here the triggers only
  -- queue ids, and the indexer applies the queues in bulk, before every search and in the background.
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TRIGGER messages_fts_update;
  -- Body words indexed so far are kept: they come from bodies read before this migration.
  CREATE TABLE message_body_words (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    words      TEXT NOT NULL
  );
  INSERT INTO message_body_words (message_id, words)
    SELECT f.rowid, f.body FROM messages_fts f JOIN messages m ON m.id = f.rowid WHERE f.body <> '';
  DROP TABLE messages_fts;
  -- No prefix indexes: they tripled the cost of indexing, and prefix queries over one mailbox's
  -- vocabulary are fast without them. rowid = messages.id; people are "name email" words.
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    subject, sender, recipients, snippet, body,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE fts_pending (message_id INTEGER PRIMARY KEY);  -- to (re)index from messages
  CREATE TABLE fts_gone (message_id INTEGER PRIMARY KEY);     -- to drop from the index
  INSERT INTO fts_pending (message_id) SELECT id FROM messages;
  CREATE TRIGGER messages_fts_queue_insert AFTER INSERT ON messages BEGIN
    INSERT OR IGNORE INTO fts_pending (message_id) VALUES (new.id);
  END;
  -- Flag, thread and folder changes touch none of these columns, so they cost the index nothing.
  CREATE TRIGGER messages_fts_queue_update AFTER UPDATE OF subject, from_json, to_json, cc_json, snippet ON messages BEGIN
    INSERT OR IGNORE INTO fts_pending (message_id) VALUES (new.id);
  END;
  CREATE TRIGGER messages_fts_queue_delete AFTER DELETE ON messages BEGIN
    DELETE FROM fts_pending WHERE message_id = old.id;
    INSERT OR IGNORE INTO fts_gone (message_id) VALUES (old.id);
  END;
  `,
  /* 7: sending and drafts exactly once — the outbox's commit point and Sent copy, draft saves under way */ `
  -- Set (synchronously) just before an attempt's final "." goes out, cleared when it is requeued: a row
  -- left 'sending' without it died before the dot (the server dropped the transaction: safe to send
  -- again); with it, after the dot and before the reply, so it becomes 'unknown' unless found in Sent.
  ALTER TABLE outbox ADD COLUMN committed_at INTEGER;
  ALTER TABLE outbox ADD COLUMN sent_copy_state TEXT NOT NULL DEFAULT 'pending';  -- 'pending' | 'filed' | 'failed'
  UPDATE outbox SET sent_copy_state = CASE WHEN state <> 'sent' THEN 'pending'
    WHEN last_error LIKE 'not filed in Sent:%' THEN 'failed' ELSE 'filed' END;
  -- An attempt left under way by a gateway without commit points may have passed its dot: unknown, not resent.
  UPDATE outbox SET committed_at = updated_at WHERE state = 'sending';
  -- An IMAP write of a draft under way (set before its APPEND, cleared once its Drafts copies are
  -- one): a crash in between leaves 0 or 2 copies, which the next start puts right by Message-ID.
  ALTER TABLE drafts ADD COLUMN saving_since INTEGER;
  ALTER TABLE drafts ADD COLUMN superseded_uid INTEGER;  -- the copy that write replaces
  `,
  /* 8: search folds ł, ø, æ, ß … as the engine does (shared/search-fold.ts, search/fts-indexer.ts) */ `
  -- Entries indexed before hold the letters unfolded: every message is indexed again, in the
  -- indexer's background batches (it drops a message's old entry before writing the new one).
  INSERT OR IGNORE INTO fts_pending (message_id) SELECT id FROM messages;
  `,
  /* 9: where a message's body text is (mirror/body-parts.ts), so opening it fetches those parts alone */ `
  -- "<text section>|<html section>" from BODYSTRUCTURE; NULL for messages mirrored before, whose
  -- bodies are still read whole (the mirror does not go back to fetch it for them).
  ALTER TABLE messages ADD COLUMN body_parts TEXT;
  `,
  /* 10: preferences that roam and account plans (issue 21 points 2 and 3; src-server/preferences, src-server/plans) */ `
  -- One document per account; no row means the defaults at revision 0 (shared/preferences.ts).
  CREATE TABLE preferences (
    account_id  INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    values_json TEXT NOT NULL,             -- read forgivingly: a key this build does not know falls back to its default
    updated_at  INTEGER NOT NULL
  );
  -- No row means DEFAULT_PLAN (shared/plans.ts); set by the operator's command line (npm run plan).
  CREATE TABLE account_plans (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    plan       TEXT NOT NULL,              -- 'paid' | 'free'
    updated_at INTEGER NOT NULL
  );
  `,
  /* 11: one IMAP owner per account and jobs that survive (issue 12 points 3 and 4; src-server/cluster, src-server/jobs) */ `
  -- Who runs each account's IMAP mirror (cluster/account-leases.ts). The row stays after a release
  -- or a takeover, so the fencing token only grows; no foreign key, so a lease never blocks (or is
  -- lost with) an account's deletion, and a row costs a few bytes.
  CREATE TABLE account_leases (
    account_id INTEGER PRIMARY KEY,
    holder     TEXT NOT NULL,              -- the node (process) holding it, or the last one that did
    token      INTEGER NOT NULL,           -- the fencing token: +1 on every acquire
    expires_at INTEGER NOT NULL            -- epoch ms; live while now < expires_at; 0 once released
  );
  -- Work that must happen later or survive a crash (jobs/job-queue.ts).
  CREATE TABLE jobs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a late worker's id cannot meet another job
    kind          TEXT NOT NULL,
    payload       TEXT NOT NULL,           -- JSON
    dedupe_key    TEXT,                    -- at most one queued or running job per (kind, key)
    state         TEXT NOT NULL,           -- 'queued' | 'running' | 'done' | 'dead'
    run_at        INTEGER NOT NULL,        -- due (epoch ms); after a failure, the retry's time
    attempts      INTEGER NOT NULL DEFAULT 0,  -- claims so far; the claim's fencing number while running
    max_attempts  INTEGER NOT NULL,
    claimed_by    TEXT,                    -- the worker of the last claim
    locked_until  INTEGER,                 -- while running: when the claim lapses and another worker may take it
    last_error    TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
  );
  CREATE INDEX jobs_due ON jobs(state, run_at);
  CREATE UNIQUE INDEX jobs_dedupe ON jobs(kind, dedupe_key) WHERE state IN ('queued', 'running');
  `,
  /* 12: rules that run on the mail server (issue 16; src-server/sieve) */ `
  -- One document per account (shared/mail-rules.ts), the source of truth the Sieve script is
  -- written from; no row = no rules at revision 0.
  CREATE TABLE mail_rules (
    account_id  INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    rules_json  TEXT NOT NULL,
    kept_script TEXT,                      -- the person's own script Tern includes, or NULL
    updated_at  INTEGER NOT NULL
  );
  -- Where the account's ManageSieve server is, as discovery found it (sieve/sieve-discovery.ts).
  CREATE TABLE sieve_servers (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    host       TEXT,                       -- NULL: no ManageSieve was found
    port       INTEGER,
    security   TEXT,                       -- 'starttls' | 'tls' | 'none'
    checked_at INTEGER NOT NULL
  );
  `,
  /* 13: job lanes — at most one running job per lane (the outbox's per-account sends; jobs/job-queue.ts) */ `
  ALTER TABLE jobs ADD COLUMN lane TEXT;  -- NULL: no lane; else at most one of its jobs runs at a time, the first due first
  CREATE INDEX jobs_lane ON jobs(lane, state);
  `,
  /* 14: the address book (issue 18; src-server/contacts) */ `
  -- One row per card. A deleted card stays as a tombstone (deleted = 1) so devices syncing
  -- from an older cursor learn of the delete; restore (undo) clears the mark.
  CREATE TABLE contacts (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,             -- chosen by the creating device (a UUID): a create sent twice is one card
    first_name  TEXT NOT NULL DEFAULT '',
    last_name   TEXT NOT NULL DEFAULT '',
    emails_json TEXT NOT NULL DEFAULT '[]',
    phones_json TEXT NOT NULL DEFAULT '[]',
    company     TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    changed_txn INTEGER NOT NULL,          -- the account's txlog id of the last change: the changes cursor
    deleted     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, id)
  );
  CREATE INDEX contacts_changes ON contacts(account_id, changed_txn, id);
  `,
  /* 15: draft save locks across gateway nodes (drafts/draft-locks.ts) */ `
  -- One save of a draft at a time on any node; a row lives while its save runs (renewed), a
  -- dead node's lapses at expires_at. No foreign key: a lock never blocks a draft's deletion.
  CREATE TABLE draft_locks (
    draft_id   INTEGER PRIMARY KEY,
    holder     TEXT NOT NULL,              -- the save's random token
    expires_at INTEGER NOT NULL            -- epoch ms
  );
  `,
  /* 16: the gateway nodes alive, for spreading accounts over them (cluster/account-leases.ts) */ `
  -- Each node's heartbeat, renewed with its leases: a node is alive while now < expires_at. A
  -- node holding no lease is counted too, so the others leave it its share of the accounts.
  CREATE TABLE cluster_nodes (
    holder     TEXT PRIMARY KEY,           -- the node, as in account_leases.holder
    expires_at INTEGER NOT NULL            -- epoch ms
  );
  `,
  /* 17: undo-send holds and scheduled send on the gateway (issue 15; outbox/send-service.ts) */ `
  -- A row with send_at is held until then (its outbox.send job's run_at is the same time):
  -- an undo hold (scheduled = 0, seconds) or a scheduled send (scheduled = 1, stored in UTC
  -- with the IANA zone it was chosen in). 'cancelled' (undo, cancel) is a state of its own,
  -- so a retried POST /api/send with the same key answers "cancelled", never a second send.
  ALTER TABLE outbox ADD COLUMN send_at INTEGER;            -- epoch ms UTC; NULL: at once
  ALTER TABLE outbox ADD COLUMN time_zone TEXT;             -- the zone a scheduled time was chosen in
  ALTER TABLE outbox ADD COLUMN scheduled INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE outbox ADD COLUMN sent_at INTEGER;            -- when SMTP took it (the Date: of the Sent copy)
  ALTER TABLE outbox ADD COLUMN summary_json TEXT;          -- {subject, to[]} for the Scheduled list
  CREATE INDEX outbox_scheduled ON outbox(account_id, scheduled, state);
  `,
  /* 18: address book imports (issue 18 point 4; src-server/contacts/contact-imports.ts) */ `
  -- One row per import: the cards read from the file (kept until the job has written them),
  -- the job's progress and outcome. At most one unfinished import per account (the partial
  -- unique index: a second is PreviousImportRequestRunning 425).
  CREATE TABLE contact_imports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    state        TEXT NOT NULL,            -- queued | running | done | failed
    file_name    TEXT NOT NULL,
    format       TEXT NOT NULL,            -- csv | vcard
    cards_json   TEXT NOT NULL,            -- the valid cards, emptied once written
    cards        INTEGER NOT NULL,
    created      INTEGER NOT NULL DEFAULT 0,
    updated      INTEGER NOT NULL DEFAULT 0,
    unchanged    INTEGER NOT NULL DEFAULT 0,
    written      INTEGER NOT NULL DEFAULT 0,
    skipped_json TEXT NOT NULL DEFAULT '[]',
    skipped_count INTEGER NOT NULL DEFAULT 0,
    error_name   TEXT,
    error_message TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX contact_imports_unfinished ON contact_imports(account_id) WHERE state IN ('queued', 'running');
  `,
  /* 19: "apply to existing mail" runs and their progress (issue 16; sieve/rule-runs.ts) */ `
  -- One row per run of a filter over the Inbox, done by a 'rules.apply' job; kept an hour after
  -- its last change, so a reloaded page still shows how it went.
  CREATE TABLE rule_runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    filter_json TEXT NOT NULL,             -- the filter as it was when the run started
    state       TEXT NOT NULL,             -- 'running' | 'done' | 'failed'
    total       INTEGER NOT NULL DEFAULT 0,  -- N: messages matched
    done        INTEGER NOT NULL DEFAULT 0,  -- n: messages done
    error       TEXT,                      -- a failed run's catalogue error name
    started_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
  );
  CREATE INDEX rule_runs_account ON rule_runs(account_id, updated_at);
  `,
  /* 20: identities and their signatures (issue 14; src-server/identities) */ `
  -- The addresses an account sends from. The own address has a row only once edited (id
  -- 'own'); the gateway lists a default one until then. At most one row has is_default = 1.
  CREATE TABLE identities (
    account_id           INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    id                   TEXT NOT NULL,    -- chosen by the creating device: a create sent twice is one identity
    name                 TEXT NOT NULL DEFAULT '',
    email                TEXT NOT NULL,
    reply_to             TEXT,
    bcc_self             INTEGER NOT NULL DEFAULT 0,
    is_default           INTEGER NOT NULL DEFAULT 0,
    signature_html       TEXT NOT NULL DEFAULT '',
    signature_on_replies INTEGER NOT NULL DEFAULT 1,
    updated_at           INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  CREATE UNIQUE INDEX identities_email ON identities(account_id, email);
  -- The txlog id of the account's last identity change: devices keep the newest list (a slow GET loses to a delta).
  CREATE TABLE identity_revisions (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL
  );
  `,
  /* 21: contact lists (issue 18 point 3; src-server/contacts/contact-lists.ts) */ `
  -- A list of the book's cards; deleted lists stay as tombstones for devices syncing from an older cursor.
  CREATE TABLE contact_lists (
    account_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    name            TEXT NOT NULL,
    member_ids_json TEXT NOT NULL DEFAULT '[]',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    changed_txn     INTEGER NOT NULL,
    deleted         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, id)
  );
  CREATE INDEX contact_lists_changes ON contact_lists(account_id, changed_txn, id);
  `,
  /* 22: labels (issue 17; src-server/labels) — the spec's EmailLabels */ `
  -- One row per label of an account: the IMAP keyword it is stored as on the mail server
  -- (chosen once, never renamed), and the name and colour people see (both change freely).
  CREATE TABLE labels (
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids go to clients
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    keyword    TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,                     -- the name lowercased: one label per name
    color      TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX labels_keyword ON labels(account_id, keyword);
  CREATE UNIQUE INDEX labels_name ON labels(account_id, name_key);
  `,
  /* 23: account security (issue 19; src-server/security) */ `
  -- Two-factor sign-in (TOTP, RFC 6238). confirmed = 0 while an enrolment waits for its first
  -- code: such a row asks nothing at login. last_step is the newest 30-second step accepted,
  -- so a code works once even inside its window.
  CREATE TABLE two_factor (
    account_id   INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    secret       BLOB NOT NULL,             -- the TOTP seed, sealed like mail passwords (crypto/secret-box.ts)
    confirmed    INTEGER NOT NULL DEFAULT 0,
    last_step    INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    confirmed_at INTEGER
  );
  -- Ten single-use recovery codes per enrolment, as HMAC-SHA256 under a key derived from the secret key.
  CREATE TABLE recovery_codes (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    used_at    INTEGER,
    PRIMARY KEY (account_id, code_hash)
  );
  -- The account's alternate address (verified = 1 once a code sent there came back).
  CREATE TABLE alternate_emails (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
  );
  -- One-time codes mailed by the gateway, one live code per account and purpose (HMAC, never the code).
  CREATE TABLE email_codes (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,               -- 'verify-alternate' | 'login'
    code_hash  TEXT NOT NULL,
    sent_to    TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, purpose)
  );
  -- Countries of the account's successful logins (GeoIP), for the suspicious-country check.
  CREATE TABLE login_countries (
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    country      TEXT NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, country)
  );
  -- What the Sessions page shows of each session.
  ALTER TABLE sessions ADD COLUMN user_agent TEXT;
  ALTER TABLE sessions ADD COLUMN ip TEXT;
  ALTER TABLE sessions ADD COLUMN country TEXT;
  `,
  /* 24: snooze, reminders and follow-ups (issue 15 points 3-4; src-server/timers) */ `
  -- A time on a thread that the gateway keeps (its thread.timer job is due then): snooze
  -- brings a thread back from the Snoozed folder, remind raises it, followUp raises it when no
  -- one else answered message_id since (its date). 'waiting' until due, then 'raised' (the
  -- thread is marked and sorts at raised_at) until dismissed; 'done' / 'cancelled' rows stay
  -- only as the jobs' fence (a late job of a replaced time finds its row gone or changed).
  CREATE TABLE thread_timers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids go to clients
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    thread_id  INTEGER NOT NULL,
    kind       TEXT NOT NULL,                     -- snooze | remind | followUp
    state      TEXT NOT NULL,                     -- waiting | raised | done | cancelled
    due_at     INTEGER NOT NULL,                  -- epoch ms UTC
    time_zone  TEXT NOT NULL,                     -- the IANA zone it was chosen in
    raised_at  INTEGER,
    message_id INTEGER,                           -- followUp: the sent message
    since      INTEGER,                           -- followUp: that message's date (replies come after)
    subject    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX thread_timers_account ON thread_timers(account_id, state, thread_id);
  `,
  /* 25: templates (issue 14 point 3; src-server/templates) — the spec's EmailTemplate */ `
  -- A template's name, subject and rich-text body; deleted ones stay as tombstones for devices
  -- reading from an older cursor (the spec's emailTemplateCursor).
  CREATE TABLE email_templates (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,    -- chosen by the creating device: a create sent twice is one template
    name        TEXT NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    body_html   TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    changed_txn INTEGER NOT NULL,  -- the txlog id of its last change: the changes stream's order
    deleted     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, id)
  );
  CREATE INDEX email_templates_changes ON email_templates(account_id, changed_txn, id);
  `,
  /* 26: a message's List-Unsubscribe (issue 17 point 2; shared/unsubscribe.ts) */ `
  -- JSON {http, mailto, oneClick} from List-Unsubscribe and List-Unsubscribe-Post, or NULL: what
  -- the Manage senders page shows and its unsubscribe uses (mail mirrored before this has none).
  ALTER TABLE messages ADD COLUMN unsubscribe TEXT;
  `,
  /* 27: auto-clean rules, their runs and what each run moved (issue 17 point 3; src-server/auto-clean/) */ `
  CREATE TABLE auto_clean_rules (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name         TEXT NOT NULL DEFAULT '',
    sender       TEXT NOT NULL DEFAULT '',   -- an address or a domain (shared/auto-clean.ts normalSender); '' for any
    newsletters  INTEGER NOT NULL DEFAULT 0, -- 1: only mail with List-Id or List-Unsubscribe
    folder_id    INTEGER,                    -- the mirror's folder; NULL: the Inbox
    folder_path  TEXT NOT NULL DEFAULT 'INBOX',
    age_days     INTEGER NOT NULL,
    action       TEXT NOT NULL,              -- 'trash' | 'archive'
    keep_newest  INTEGER NOT NULL DEFAULT 1,
    enabled      INTEGER NOT NULL DEFAULT 0,
    confirmed    INTEGER NOT NULL DEFAULT 0, -- the person confirmed a rule that touches everything
    last_run_at  INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
  );
  CREATE INDEX auto_clean_rules_account ON auto_clean_rules(account_id, id);
  -- One row per run of a rule (kept when the rule is deleted: the log still says what moved).
  CREATE TABLE auto_clean_runs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    rule_id       INTEGER NOT NULL,
    rule_name     TEXT NOT NULL,
    trigger_kind  TEXT NOT NULL,             -- 'schedule' | 'manual'
    at            INTEGER NOT NULL,
    from_path     TEXT NOT NULL,
    to_path       TEXT NOT NULL,
    count         INTEGER NOT NULL DEFAULT 0,
    subjects_json TEXT NOT NULL DEFAULT '[]',
    error         TEXT,
    undone_at     INTEGER,
    restored      INTEGER NOT NULL DEFAULT 0,
    lost          INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX auto_clean_runs_account ON auto_clean_runs(account_id, at);
  -- Each message a run moved: where it went (COPYUID) and its Message-ID, for undo.
  CREATE TABLE auto_clean_moves (
    run_id            INTEGER NOT NULL REFERENCES auto_clean_runs(id) ON DELETE CASCADE,
    from_uid          INTEGER NOT NULL,
    to_uid            INTEGER,
    to_uidvalidity    INTEGER,
    message_id_header TEXT,
    PRIMARY KEY (run_id, from_uid)
  );
  `,
  /* 28: a lane's head found by one index seek (issue 15's benchmark; jobs/job-queue.ts claim) */ `
  -- The claim walks the due jobs in (run_at, id) order (jobs_due, its rowid is the id) and takes
  -- a laned job only if it heads its lane: the lane's first queued job in that order is one seek
  -- here, where jobs_lane (lane, state) scanned the whole lane for each candidate.
  CREATE INDEX jobs_lane_head ON jobs(lane, state, run_at, id);
  DROP INDEX jobs_lane;
  `,
  /* 29: a message is list or bulk mail (issue 17 point 4, the priority inbox's signal) */ `
  -- 1: it has List-Id (RFC 2919), or Precedence: bulk, list or junk; 0 otherwise, and for mail
  -- mirrored before this (its List-Unsubscribe, kept since 26, still says "a list").
  ALTER TABLE messages ADD COLUMN bulk INTEGER NOT NULL DEFAULT 0;
  `,
];
