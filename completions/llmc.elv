
use builtin;
use str;

set edit:completion:arg-completer[llmc] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'llmc'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'llmc'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand ask 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)'
            cand index 'Index the repository (incrementally: only new and changed files are parsed)'
            cand status 'Show what the index holds and what changed since'
            cand graph 'Ask the code graph: callers, callees, definitions, imports, importers'
            cand log 'The commits that changed a definition, a file or a directory, newest first'
            cand search 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both'
            cand eval 'Run a labelled set of questions (JSONL) through `ask` and score the answers'
            cand config 'Print the documented example configuration, or the configuration in effect here'
            cand completions 'Print a shell completion script on stdout (see the README for where to put it)'
            cand man 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`'
            cand mcp 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llmc;ask'= {
            cand -k 'Show this many sources (default from `ask.k`)'
            cand --k 'Show this many sources (default from `ask.k`)'
            cand --path 'Cite only files whose path matches this glob (e.g. ''src/**/*.rs'')'
            cand --lang 'Cite only files of this language (as `llmc status` names them)'
            cand --max-tokens 'Fit the output in about N tokens (bytes / 4): the answer, then the lines, rows and sources that fit, then what was left out and the command that prints the next page'
            cand --offset 'With --max-tokens: skip the first N items (the next page''s start, as printed)'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --json 'Print one JSON document on stdout (documented in the README)'
            cand --trace 'Show every stage''s decision, reasons and milliseconds'
            cand --no-refresh 'Answer from the index as it is, even if files changed since it was built'
            cand --no-cache 'Neither read nor write the answer cache'
            cand --no-llm 'Do not call the configured LLM: the programmatic answer only'
            cand --no-tests 'Cite no tests, test fixtures or test data'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;index'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --rebuild 'Start over from an empty index (also repairs a corrupt or outdated one)'
            cand --history-only 'Only read the git history not read yet, to its end, in the foreground (what `llmc index` and `llmc ask` otherwise leave to a background run)'
            cand --precise 'Run the SCIP indexers found on PATH (scip-typescript, scip-python, rust-analyzer, scip-go) for compiler-precise call edges; their indexes go under .llmc/scip/'
            cand --json 'Print the run''s statistics as JSON on stdout'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;status'= {
            cand --max-changed 'List at most this many changed files (all with --json)'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --json 'Print as JSON on stdout'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;graph'= {
            cand --depth 'Follow edges transitively up to N levels (cycles are cut)'
            cand --resolution 'Keep only edges resolved at least this strongly (exact > import > scope > name-only)'
            cand --limit 'Print at most N rows (a longer answer is summarized by file first)'
            cand --offset 'Skip the first N rows (to page through a long answer); with --max-tokens, the first N items of the answer''s lists'
            cand --max-tokens 'Fit the output in about N tokens (bytes / 4): the rows that fit, then what was left out and the command that prints the next page'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --json 'Print as JSON on stdout'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;log'= {
            cand --since 'Only commits authored at or after DATE (2024-03-01, yesterday, "3 months ago")'
            cand --until 'Only commits authored at or before DATE'
            cand --author 'Only commits whose author name or email contains NAME (any case)'
            cand --grep 'Only commits whose message contains TEXT (any case)'
            cand -n 'At most N commits'
            cand --limit 'At most N commits'
            cand --offset 'Skip the first N commits (a later page)'
            cand --max-tokens 'Fit the output in about N tokens (bytes / 4): the commits that fit, then how many were left out and the command that prints the next page'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --reverse 'Oldest first: the commit that introduced a definition or file at the top'
            cand --json 'Print as JSON on stdout'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;search'= {
            cand --mode 'lexical (BM25 over code-aware tokens), semantic (embeddings) or hybrid (both, fused); default from `search.mode`'
            cand -k 'Show this many hits (default from `search.k`)'
            cand --k 'Show this many hits (default from `search.k`)'
            cand --lang 'Only files of this language (e.g. rust, python, markdown)'
            cand --path 'Only files whose path matches this glob (e.g. ''src/**/*.rs'')'
            cand --offset 'Skip the first N hits (a later page of the -k best)'
            cand --max-tokens 'Fit the output in about N tokens (bytes / 4): the hits that fit, then how many were left out and the command that prints the next page'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --no-tests 'No tests, test fixtures or test data (as `ask --no-tests`)'
            cand --json 'Print as JSON on stdout'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;eval'= {
            cand -k 'Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)'
            cand --k 'Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand --compare 'Also ask every question through each retriever alone and through `llmc search --mode hybrid`, and print MRR@k of each beside ask''s, per intent'
            cand --json 'Print one JSON document on stdout: metrics overall, per intent and per question'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;config'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand example 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
            cand show 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llmc;config;example'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;config;show'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;config;help'= {
            cand example 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
            cand show 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llmc;config;help;example'= {
        }
        &'llmc;config;help;show'= {
        }
        &'llmc;config;help;help'= {
        }
        &'llmc;completions'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;man'= {
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;mcp'= {
            cand --index-wait 'With no index yet, wait this long for the first one before answering that indexing started (the index goes on being built)'
            cand -C 'Run as if llmc was started in DIR'
            cand --dir 'Run as if llmc was started in DIR'
            cand --config 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000'
            cand --color 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never'
            cand -q 'Print nothing on stderr but errors'
            cand --quiet 'Print nothing on stderr but errors'
            cand -v 'Print more on stderr: where the root and the configuration came from, timings'
            cand --verbose 'Print more on stderr: where the root and the configuration came from, timings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'llmc;help'= {
            cand ask 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)'
            cand index 'Index the repository (incrementally: only new and changed files are parsed)'
            cand status 'Show what the index holds and what changed since'
            cand graph 'Ask the code graph: callers, callees, definitions, imports, importers'
            cand log 'The commits that changed a definition, a file or a directory, newest first'
            cand search 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both'
            cand eval 'Run a labelled set of questions (JSONL) through `ask` and score the answers'
            cand config 'Print the documented example configuration, or the configuration in effect here'
            cand completions 'Print a shell completion script on stdout (see the README for where to put it)'
            cand man 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`'
            cand mcp 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'llmc;help;ask'= {
        }
        &'llmc;help;index'= {
        }
        &'llmc;help;status'= {
        }
        &'llmc;help;graph'= {
        }
        &'llmc;help;log'= {
        }
        &'llmc;help;search'= {
        }
        &'llmc;help;eval'= {
        }
        &'llmc;help;config'= {
            cand example 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
            cand show 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
        }
        &'llmc;help;config;example'= {
        }
        &'llmc;help;config;show'= {
        }
        &'llmc;help;completions'= {
        }
        &'llmc;help;man'= {
        }
        &'llmc;help;mcp'= {
        }
        &'llmc;help;help'= {
        }
    ]
    $completions[$command]
}
