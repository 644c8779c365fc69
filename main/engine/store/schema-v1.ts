// Migration 1: the whole schema of the first release. Local times are integer
// milliseconds since the epoch (cheap to compare and index); times from the service stay
// the ISO strings it sent. Values the service owns (statuses, media types, sources) are
// free text: unknown values are kept. Values this app owns carry CHECK constraints so a
// bug cannot write a state nobody handles.
export const schemaV1 = `
CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at INTEGER NOT NULL
);

CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Personal workspace: key 'personal', workspace_id NULL (the service's representation).
CREATE TABLE workspaces (
  key          TEXT PRIMARY KEY,
  workspace_id TEXT UNIQUE,
  name         TEXT,
  is_personal  INTEGER NOT NULL CHECK (is_personal IN (0, 1)),
  raw_json     TEXT,
  synced_at    INTEGER
);

CREATE TABLE credits (
  workspace_key TEXT PRIMARY KEY,
  balance       REAL NOT NULL,
  unlimited     INTEGER NOT NULL CHECK (unlimited IN (0, 1)),
  raw_json      TEXT NOT NULL,
  synced_at     INTEGER NOT NULL
);

CREATE TABLE brands (
  id               TEXT PRIMARY KEY,
  name             TEXT,
  status           TEXT,
  failure_code     TEXT,
  failure_message  TEXT,
  skill_id         TEXT,
  workspace_id     TEXT,
  folder_name      TEXT,
  deleted_remotely INTEGER NOT NULL DEFAULT 0 CHECK (deleted_remotely IN (0, 1)),
  raw_json         TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  last_synced_at   INTEGER
);
CREATE UNIQUE INDEX brands_folder ON brands(folder_name) WHERE folder_name IS NOT NULL;

-- The local file index of the brand folders (folder sync).
CREATE TABLE files (
  id            INTEGER PRIMARY KEY,
  brand_id      TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  rel_path      TEXT NOT NULL,
  path_key      TEXT NOT NULL,
  size          INTEGER NOT NULL CHECK (size >= 0),
  mtime_ms      INTEGER NOT NULL,
  inode         TEXT,
  sha256        TEXT,
  kind          TEXT NOT NULL CHECK (kind IN ('image', 'logo')),
  state         TEXT NOT NULL CHECK (state IN ('waiting', 'uploading', 'uploaded', 'skipped', 'failed', 'deleted')),
  reason        TEXT,
  bytes_sent    INTEGER NOT NULL DEFAULT 0,
  image_id      TEXT,
  existing      INTEGER CHECK (existing IN (0, 1)),
  attempts      INTEGER NOT NULL DEFAULT 0,
  next_retry_at INTEGER,
  last_error    TEXT,
  first_seen_at INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE UNIQUE INDEX files_path ON files(brand_id, path_key);
CREATE INDEX files_sha ON files(brand_id, sha256);
CREATE INDEX files_state ON files(brand_id, state);

-- Which bytes were already uploaded to which brand: a rename or a copy uploads nothing.
CREATE TABLE uploads (
  brand_id    TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  sha256      TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('image', 'logo')),
  image_id    TEXT,
  existing    INTEGER NOT NULL CHECK (existing IN (0, 1)),
  size        INTEGER NOT NULL,
  uploaded_at INTEGER NOT NULL,
  PRIMARY KEY (brand_id, sha256, kind)
);

CREATE TABLE jobs (
  id                INTEGER PRIMARY KEY,
  kind              TEXT NOT NULL,
  job_key           TEXT,
  brand_id          TEXT,
  payload_json      TEXT NOT NULL,
  facts_json        TEXT NOT NULL DEFAULT '{}',
  result_json       TEXT,
  state             TEXT NOT NULL CHECK (state IN ('queued', 'running', 'retry-wait', 'done', 'failed', 'cancelled')),
  priority          INTEGER NOT NULL DEFAULT 0,
  attempts          INTEGER NOT NULL DEFAULT 0,
  network_failures  INTEGER NOT NULL DEFAULT 0,
  next_run_at       INTEGER NOT NULL,
  last_error_json   TEXT,
  lease_owner       TEXT,
  lease_expires_at  INTEGER,
  progress_done     REAL,
  progress_total    REAL,
  cancel_requested  INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  started_at        INTEGER,
  finished_at       INTEGER
);
-- One active job per key: the same file is never queued twice.
CREATE UNIQUE INDEX jobs_active_key ON jobs(job_key)
  WHERE job_key IS NOT NULL AND state IN ('queued', 'running', 'retry-wait');
CREATE INDEX jobs_runnable ON jobs(priority DESC, next_run_at, id)
  WHERE state IN ('queued', 'retry-wait');
CREATE INDEX jobs_running ON jobs(lease_expires_at) WHERE state = 'running';
CREATE INDEX jobs_state ON jobs(state, kind);
CREATE INDEX jobs_finished ON jobs(finished_at) WHERE finished_at IS NOT NULL;

-- Processes that hold leases; a dead one's leases are released without waiting for expiry.
CREATE TABLE queue_owners (
  owner_id   TEXT PRIMARY KEY,
  host       TEXT NOT NULL,
  pid        INTEGER NOT NULL,
  started_at INTEGER NOT NULL
);

CREATE TABLE library_items (
  rowid               INTEGER PRIMARY KEY,
  id                  TEXT NOT NULL UNIQUE,
  brand_id            TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  type                TEXT NOT NULL,
  source              TEXT,
  workspace_id        TEXT,
  mime_type           TEXT,
  url                 TEXT,
  file_size           INTEGER,
  duration_ms         INTEGER,
  width               INTEGER,
  height              INTEGER,
  description         TEXT,
  in_library          INTEGER,
  added_to_library_at TEXT,
  generation_id       TEXT,
  created_at          TEXT,
  sort_at             INTEGER NOT NULL,
  raw_json            TEXT NOT NULL,
  first_seen_seq      INTEGER NOT NULL,
  seen_seq            INTEGER NOT NULL,
  first_seen_at       INTEGER NOT NULL,
  last_seen_at        INTEGER NOT NULL,
  removed             INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
  removed_at          INTEGER
);
-- Newest first, keyset-paged, with and without a type filter: no scan at any depth.
CREATE INDEX library_by_brand ON library_items(brand_id, removed, sort_at DESC, id DESC);
CREATE INDEX library_by_type ON library_items(brand_id, type, removed, sort_at DESC, id DESC);

-- Word search in descriptions, kept in step with library_items by triggers.
CREATE VIRTUAL TABLE library_search USING fts5(
  description, content = 'library_items', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER library_search_ai AFTER INSERT ON library_items WHEN new.description IS NOT NULL BEGIN
  INSERT INTO library_search(rowid, description) VALUES (new.rowid, new.description);
END;
CREATE TRIGGER library_search_ad AFTER DELETE ON library_items WHEN old.description IS NOT NULL BEGIN
  INSERT INTO library_search(library_search, rowid, description) VALUES ('delete', old.rowid, old.description);
END;
CREATE TRIGGER library_search_au AFTER UPDATE OF description ON library_items
  WHEN old.description IS NOT new.description BEGIN
  INSERT INTO library_search(library_search, rowid, description)
    SELECT 'delete', old.rowid, old.description WHERE old.description IS NOT NULL;
  INSERT INTO library_search(rowid, description)
    SELECT new.rowid, new.description WHERE new.description IS NOT NULL;
END;

-- Offline copies of Library images; least recently used go first when over the cap.
CREATE TABLE media_cache (
  item_id      TEXT PRIMARY KEY,
  rel_path     TEXT NOT NULL,
  bytes        INTEGER NOT NULL,
  mime_type    TEXT,
  stored_at    INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
);
CREATE INDEX media_cache_lru ON media_cache(last_used_at);

CREATE TABLE exports (
  id                TEXT PRIMARY KEY,
  brand_id          TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  skill_id          TEXT,
  status            TEXT,
  download_url      TEXT,
  failure_retryable INTEGER,
  raw_json          TEXT,
  installed_at      INTEGER,
  path              TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX exports_brand ON exports(brand_id, updated_at);
CREATE INDEX exports_installed ON exports(brand_id, installed_at) WHERE installed_at IS NOT NULL;

CREATE TABLE brand_edits (
  id         TEXT PRIMARY KEY,
  brand_id   TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  status     TEXT,
  raw_json   TEXT NOT NULL,
  synced_at  INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX brand_edits_brand ON brand_edits(brand_id, status);

CREATE TABLE activity (
  id        INTEGER PRIMARY KEY,
  at        INTEGER NOT NULL,
  level     TEXT NOT NULL CHECK (level IN ('debug', 'info', 'warn', 'error')),
  code      TEXT NOT NULL,
  message   TEXT NOT NULL,
  brand_id  TEXT,
  path      TEXT,
  data_json TEXT
);
CREATE INDEX activity_at ON activity(at);
CREATE INDEX activity_brand ON activity(brand_id, at) WHERE brand_id IS NOT NULL;

-- Freshness and resumable progress of each synchronised thing: scope 'library' with the
-- brand ID as subject, 'brands' and 'workspaces' with '' and 'credits' with a workspace key.
CREATE TABLE sync_state (
  scope             TEXT NOT NULL,
  subject           TEXT NOT NULL,
  seq               INTEGER NOT NULL DEFAULT 0,
  completed_seq     INTEGER NOT NULL DEFAULT 0,
  full_pass_seq     INTEGER,
  last_full_pass_at INTEGER,
  last_refresh_at   INTEGER,
  last_attempt_at   INTEGER,
  last_error_json   TEXT,
  PRIMARY KEY (scope, subject)
);
`;
