/** Bump when the schema or what is derived from notes changes: an index of another version is rebuilt. */
export const INDEX_VERSION = '4';

export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE memories(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  ns TEXT NOT NULL,
  object TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  tags TEXT NOT NULL,
  status TEXT NOT NULL,
  spec TEXT,
  phase TEXT,
  relates_to TEXT NOT NULL,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  author TEXT,
  source TEXT,
  confidence REAL,
  tiebreak TEXT NOT NULL,
  -- Hash of the text semantic search embeds (core/embedding.ts): a stored vector is valid while it matches.
  ehash TEXT NOT NULL DEFAULT '',
  current INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX memories_key ON memories(key);
CREATE INDEX memories_note ON memories(ns, object);
CREATE INDEX memories_created ON memories(current, created);
-- Listing one namespace newest first, and counting by namespace, without walking the others.
CREATE INDEX memories_ns_created ON memories(ns, current, created);
CREATE TABLE tombstones(key TEXT NOT NULL, ns TEXT NOT NULL, object TEXT NOT NULL, updated TEXT NOT NULL);
CREATE INDEX tombstones_key ON tombstones(key);
CREATE INDEX tombstones_note ON tombstones(ns, object);
-- Lexical search. FTS4, because sql.js ships FTS4 with the porter stemmer and
-- matchinfo() but not FTS5; BM25 is computed from matchinfo in core/rank.ts.
-- External content (content='memories'): the text is stored once, in memories;
-- a row is removed from here before its memories row (FTS4 reads the old text to
-- delete its terms). tags is the JSON array, which the tokenizer splits into words.
CREATE VIRTUAL TABLE memories_fts USING fts4(content='memories', summary, tags, body, tokenize=porter);
`;
