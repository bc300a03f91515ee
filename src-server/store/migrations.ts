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
];
