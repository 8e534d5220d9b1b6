
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'llmc' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'llmc'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'llmc' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('ask', 'ask', [CompletionResultType]::ParameterValue, 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Index the repository (incrementally: only new and changed files are parsed)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what the index holds and what changed since')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Ask the code graph: callers, callees, definitions, imports, importers')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'The commits that changed a definition, a file or a directory, newest first')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run a labelled set of questions (JSONL) through `ask` and score the answers')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the documented example configuration, or the configuration in effect here')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout (see the README for where to put it)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llmc;ask' {
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Show this many sources (default from `ask.k`)')
            [CompletionResult]::new('--k', '--k', [CompletionResultType]::ParameterName, 'Show this many sources (default from `ask.k`)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Cite only files whose path matches this glob (e.g. ''src/**/*.rs'')')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Cite only files of this language (as `llmc status` names them)')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the output in about N tokens (bytes / 4): the answer, then the lines, rows and sources that fit, then what was left out and the command that prints the next page')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'With --max-tokens: skip the first N items (the next page''s start, as printed)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (documented in the README)')
            [CompletionResult]::new('--trace', '--trace', [CompletionResultType]::ParameterName, 'Show every stage''s decision, reasons and milliseconds')
            [CompletionResult]::new('--no-refresh', '--no-refresh', [CompletionResultType]::ParameterName, 'Answer from the index as it is, even if files changed since it was built')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Neither read nor write the answer cache')
            [CompletionResult]::new('--no-llm', '--no-llm', [CompletionResultType]::ParameterName, 'Do not call the configured LLM: the programmatic answer only')
            [CompletionResult]::new('--no-tests', '--no-tests', [CompletionResultType]::ParameterName, 'Cite no tests, test fixtures or test data')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;index' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--rebuild', '--rebuild', [CompletionResultType]::ParameterName, 'Start over from an empty index (also repairs a corrupt or outdated one)')
            [CompletionResult]::new('--history-only', '--history-only', [CompletionResultType]::ParameterName, 'Only read the git history not read yet, to its end, in the foreground (what `llmc index` and `llmc ask` otherwise leave to a background run)')
            [CompletionResult]::new('--precise', '--precise', [CompletionResultType]::ParameterName, 'Run the SCIP indexers found on PATH (scip-typescript, scip-python, rust-analyzer, scip-go) for compiler-precise call edges; their indexes go under .llmc/scip/')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the run''s statistics as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;status' {
            [CompletionResult]::new('--max-changed', '--max-changed', [CompletionResultType]::ParameterName, 'List at most this many changed files (all with --json)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;graph' {
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Follow edges transitively up to N levels (cycles are cut)')
            [CompletionResult]::new('--resolution', '--resolution', [CompletionResultType]::ParameterName, 'Keep only edges resolved at least this strongly (exact > import > scope > name-only)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Print at most N rows (a longer answer is summarized by file first)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N rows (to page through a long answer); with --max-tokens, the first N items of the answer''s lists')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the output in about N tokens (bytes / 4): the rows that fit, then what was left out and the command that prints the next page')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;log' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only commits authored at or after DATE (2024-03-01, yesterday, "3 months ago")')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only commits authored at or before DATE')
            [CompletionResult]::new('--author', '--author', [CompletionResultType]::ParameterName, 'Only commits whose author name or email contains NAME (any case)')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only commits whose message contains TEXT (any case)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most N commits')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N commits')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N commits (a later page)')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the output in about N tokens (bytes / 4): the commits that fit, then how many were left out and the command that prints the next page')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Oldest first: the commit that introduced a definition or file at the top')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;search' {
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'lexical (BM25 over code-aware tokens), semantic (embeddings) or hybrid (both, fused); default from `search.mode`')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Show this many hits (default from `search.k`)')
            [CompletionResult]::new('--k', '--k', [CompletionResultType]::ParameterName, 'Show this many hits (default from `search.k`)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only files of this language (e.g. rust, python, markdown)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob (e.g. ''src/**/*.rs'')')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N hits (a later page of the -k best)')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fit the output in about N tokens (bytes / 4): the hits that fit, then how many were left out and the command that prints the next page')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--no-tests', '--no-tests', [CompletionResultType]::ParameterName, 'No tests, test fixtures or test data (as `ask --no-tests`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;eval' {
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)')
            [CompletionResult]::new('--k', '--k', [CompletionResultType]::ParameterName, 'Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also ask every question through each retriever alone and through `llmc search --mode hybrid`, and print MRR@k of each beside ask''s, per intent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout: metrics overall, per intent and per question')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;config' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llmc;config;example' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;config;show' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;config;help' {
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llmc;config;help;example' {
            break
        }
        'llmc;config;help;show' {
            break
        }
        'llmc;config;help;help' {
            break
        }
        'llmc;completions' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;man' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;mcp' {
            [CompletionResult]::new('--index-wait', '--index-wait', [CompletionResultType]::ParameterName, 'With no index yet, wait this long for the first one before answering that indexing started (the index goes on being built)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Run as if llmc was started in DIR')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr: where the root and the configuration came from, timings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'llmc;help' {
            [CompletionResult]::new('ask', 'ask', [CompletionResultType]::ParameterValue, 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Index the repository (incrementally: only new and changed files are parsed)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what the index holds and what changed since')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Ask the code graph: callers, callees, definitions, imports, importers')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'The commits that changed a definition, a file or a directory, newest first')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run a labelled set of questions (JSONL) through `ask` and score the answers')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the documented example configuration, or the configuration in effect here')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout (see the README for where to put it)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'llmc;help;ask' {
            break
        }
        'llmc;help;index' {
            break
        }
        'llmc;help;status' {
            break
        }
        'llmc;help;graph' {
            break
        }
        'llmc;help;log' {
            break
        }
        'llmc;help;search' {
            break
        }
        'llmc;help;eval' {
            break
        }
        'llmc;help;config' {
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what')
            break
        }
        'llmc;help;config;example' {
            break
        }
        'llmc;help;config;show' {
            break
        }
        'llmc;help;completions' {
            break
        }
        'llmc;help;man' {
            break
        }
        'llmc;help;mcp' {
            break
        }
        'llmc;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
