/** Bump when the schema or what is derived from notes changes: an index of another version is rebuilt. */
export const INDEX_VERSION = '13';

export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE memories(
  -- Never reused (AUTOINCREMENT): the term index follows rows by id.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL,
  ns TEXT NOT NULL,
  object TEXT NOT NULL,
  -- No body or other free text: current memories are read from the term index (terms/reader.ts,
  -- compressed), and the notes hold every revision. The summary stays for completion.
  summary TEXT NOT NULL,
  tags TEXT NOT NULL,
  status TEXT NOT NULL,
  spec TEXT,
  created TEXT NOT NULL,
  -- created in ms: filters and order compare times as numbers, as the term index does (text sorts '00.5Z' before '00Z').
  created_ms REAL NOT NULL DEFAULT 0,
  updated TEXT NOT NULL,
  -- JSON: the files recorded at capture (a list).
  paths TEXT NOT NULL DEFAULT '[]',
  -- JSON: the lifecycle links (consolidates, consolidated_into, supersedes, superseded_by, reprieves), or null.
  lifecycle TEXT,
  -- The hash of the document (core/revisions.ts) as its 20 bytes, not 40 hex digits: read back with lower(hex(...)).
  tiebreak BLOB NOT NULL,
  -- Hash of the text semantic search embeds (core/search/embedding.ts): a stored vector is valid while it matches.
  ehash BLOB NOT NULL DEFAULT x'',
  current INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX memories_key ON memories(key);
CREATE INDEX memories_note ON memories(ns, object);
-- Listing and counting go through the term index: no index on creation time.
CREATE TABLE tombstones(key TEXT NOT NULL, ns TEXT NOT NULL, object TEXT NOT NULL, updated TEXT NOT NULL);
CREATE INDEX tombstones_key ON tombstones(key);
CREATE INDEX tombstones_note ON tombstones(ns, object);
-- Lexical search has its own file, the term index (terms/reader.ts).
`;
