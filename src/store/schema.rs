//! The store's tables and indexes, as SQL. Changing either means bumping
//! [`super::SCHEMA_VERSION`]: a store of another version is rebuilt, never migrated.

pub(super) const SCHEMA_TABLES: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    lang TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    hash TEXT NOT NULL,
    lines INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    -- A file's symbols and chunks have consecutive ids (one writer inserts them
    -- together): these ranges replace an index on file_id. NULL when there are none.
    sym_lo INTEGER,
    sym_hi INTEGER,
    chunk_lo INTEGER,
    chunk_hi INTEGER,
    -- The same for the file's call sites and imports (the code graph).
    calls_lo INTEGER,
    calls_hi INTEGER,
    imports_lo INTEGER,
    imports_hi INTEGER
);
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    parent_id INTEGER,
    name TEXT NOT NULL,
    qualname TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    symbol_id INTEGER,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    symbol TEXT
);
-- The code graph. A call site as written (caller, name, qualifier, receiver type) comes
-- from its file alone; the callee columns are resolved across files after every run.
CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    caller_id INTEGER,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    name TEXT NOT NULL,
    qualifier TEXT,
    kind TEXT NOT NULL,
    receiver_type TEXT,
    -- For a receiver typed by a call (`x = f(); x.m()`): that call's name (`f`).
    receiver_call TEXT,
    callee_id INTEGER,
    resolution TEXT,
    candidates INTEGER NOT NULL DEFAULT 0,
    external TEXT,
    -- model::Usage: 'call', or a use that is not a call ('decorator', 'value').
    usage TEXT NOT NULL DEFAULT 'call',
    -- 1 when the callee columns come from a SCIP index (graph::scip), not llmc's resolution.
    precise INTEGER NOT NULL DEFAULT 0,
    -- How many arguments the call passes, where overloads are told apart by it (C#).
    args INTEGER,
    -- The arguments' types where the call states them (model::CallSite::arg_types).
    arg_types TEXT
);
-- Call-like references a SCIP index records where the file has no call site (graph::scip);
-- rewritten whole by every run that changes the graph. Always `precise`.
CREATE TABLE scip_calls (
    file_id INTEGER NOT NULL,
    caller_id INTEGER,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    name TEXT NOT NULL,
    callee_id INTEGER NOT NULL
);
-- Every call edge: the call sites and the SCIP references that have none.
CREATE VIEW call_edges AS
    SELECT file_id, caller_id, line, col, name, callee_id, resolution, candidates, external, usage
    FROM calls
    UNION ALL
    SELECT file_id, caller_id, line, col, name, callee_id, 'precise', 1, NULL, 'call'
    FROM scip_calls;
-- Fields whose type their file states (`self.store = Store()`, `store: Store`), by the
-- name of the type they belong to; `type` is a stored receiver (model::Receiver).
CREATE TABLE fields (
    file_id INTEGER NOT NULL,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL
);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    module TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    alias TEXT,
    wildcard INTEGER NOT NULL,
    target_file_id INTEGER
);
-- History (src/history/): commits reachable from HEAD, the files each changed and the
-- definitions each touched. `commits.id` is the ingestion order: parents before children.
CREATE TABLE commits (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    parents TEXT NOT NULL,
    author TEXT NOT NULL,
    email TEXT NOT NULL,
    author_date TEXT NOT NULL,
    author_time INTEGER NOT NULL,
    commit_time INTEGER NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    -- Where a shallow clone cuts the history: what this commit changed is unknown.
    boundary INTEGER NOT NULL
);
CREATE TABLE commit_files (
    commit_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    old_path TEXT,
    status TEXT NOT NULL,
    added INTEGER,
    removed INTEGER
);
CREATE TABLE commit_symbols (
    commit_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    qualname TEXT NOT NULL,
    kind TEXT NOT NULL,
    change TEXT NOT NULL,
    added INTEGER NOT NULL,
    removed INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    hunks TEXT NOT NULL
);
";

/// The indexes of a new store, made once its rows are in (one sort per index instead of
/// an update per row). A call's callee and receiver call are looked up by equality only,
/// which rules out NULL, so their indexes leave out the calls that have none (half of
/// them have no callee, five in six no receiver call): less to sort when a store is
/// made, less to keep when calls are written.
pub(super) const SCHEMA_INDEXES: &str = "
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX calls_callee ON calls(callee_id) WHERE callee_id IS NOT NULL;
CREATE INDEX calls_caller ON calls(caller_id);
CREATE INDEX calls_name ON calls(name);
CREATE INDEX calls_receiver_call ON calls(receiver_call) WHERE receiver_call IS NOT NULL;
CREATE INDEX calls_precise ON calls(precise) WHERE precise = 1;
CREATE INDEX scip_calls_callee ON scip_calls(callee_id);
CREATE INDEX scip_calls_caller ON scip_calls(caller_id);
CREATE INDEX imports_target ON imports(target_file_id);
CREATE INDEX fields_file ON fields(file_id);
CREATE INDEX commits_time ON commits(commit_time, id);
CREATE INDEX commit_files_commit ON commit_files(commit_id);
CREATE INDEX commit_files_path ON commit_files(path);
CREATE INDEX commit_files_old_path ON commit_files(old_path) WHERE old_path IS NOT NULL;
CREATE INDEX commit_files_deleted ON commit_files(path) WHERE status = 'D';
CREATE INDEX commit_symbols_commit ON commit_symbols(commit_id);
CREATE INDEX commit_symbols_name ON commit_symbols(name);
CREATE INDEX commit_symbols_qualname ON commit_symbols(qualname);
";
