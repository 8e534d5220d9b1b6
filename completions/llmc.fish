# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_llmc_global_optspecs
    string join \n C/dir= config= q/quiet v/verbose color= h/help V/version
end

function __fish_llmc_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_llmc_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_llmc_using_subcommand
    set -l cmd (__fish_llmc_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c llmc -n "__fish_llmc_needs_command" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_needs_command" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_needs_command" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_needs_command" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_needs_command" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_needs_command" -s V -l version -d 'Print version'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "ask" -d 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "index" -d 'Index the repository (incrementally: only new and changed files are parsed)'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "status" -d 'Show what the index holds and what changed since'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "graph" -d 'Ask the code graph: callers, callees, definitions, imports, importers'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "log" -d 'The commits that changed a definition, a file or a directory, newest first'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "search" -d 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "eval" -d 'Run a labelled set of questions (JSONL) through `ask` and score the answers'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "config" -d 'Print the documented example configuration, or the configuration in effect here'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "completions" -d 'Print a shell completion script on stdout (see the README for where to put it)'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "man" -d 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "mcp" -d 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)'
complete -c llmc -n "__fish_llmc_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -s k -l k -d 'Show this many sources (default from `ask.k`)' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l path -d 'Cite only files whose path matches this glob (e.g. \'src/**/*.rs\')' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l lang -d 'Cite only files of this language (as `llmc status` names them)' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l max-tokens -d 'Fit the output in about N tokens (bytes / 4): the answer, then the lines, rows and sources that fit, then what was left out and the command that prints the next page' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l offset -d 'With --max-tokens: skip the first N items (the next page\'s start, as printed)' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l json -d 'Print one JSON document on stdout (documented in the README)'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l trace -d 'Show every stage\'s decision, reasons and milliseconds'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l no-refresh -d 'Answer from the index as it is, even if files changed since it was built'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l no-cache -d 'Neither read nor write the answer cache'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l no-llm -d 'Do not call the configured LLM: the programmatic answer only'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -l no-tests -d 'Cite no tests, test fixtures or test data'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand ask" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand index" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand index" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand index" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand index" -l rebuild -d 'Start over from an empty index (also repairs a corrupt or outdated one)'
complete -c llmc -n "__fish_llmc_using_subcommand index" -l history-only -d 'Only read the git history not read yet, to its end, in the foreground (what `llmc index` and `llmc ask` otherwise leave to a background run)'
complete -c llmc -n "__fish_llmc_using_subcommand index" -l precise -d 'Run the SCIP indexers found on PATH (scip-typescript, scip-python, rust-analyzer, scip-go) for compiler-precise call edges; their indexes go under .llmc/scip/'
complete -c llmc -n "__fish_llmc_using_subcommand index" -l json -d 'Print the run\'s statistics as JSON on stdout'
complete -c llmc -n "__fish_llmc_using_subcommand index" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand index" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand index" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand status" -l max-changed -d 'List at most this many changed files (all with --json)' -r
complete -c llmc -n "__fish_llmc_using_subcommand status" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand status" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand status" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand status" -l json -d 'Print as JSON on stdout'
complete -c llmc -n "__fish_llmc_using_subcommand status" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand status" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l depth -d 'Follow edges transitively up to N levels (cycles are cut)' -r
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l resolution -d 'Keep only edges resolved at least this strongly (exact > import > scope > name-only)' -r -f -a "precise\t'Confirmed by a SCIP index, written by the language\'s own indexer (a compiler\'s answer): outranks every heuristic level below'
exact\t'The same scope and file'
import\t'A name or module an import brings in, followed to its file'
scope\t'A method on `self`/`this` or on the receiver\'s known type, a type-qualified path, the same package or directory; in C, the one function of that name with external linkage (the linker binds it by name)'
name-only\t'A name defined once in the repository'
unresolved\t'Everything, with the call sites whose receiver could not be typed (for callers: the calls with the target\'s name that nothing resolved)'"
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l limit -d 'Print at most N rows (a longer answer is summarized by file first)' -r
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l offset -d 'Skip the first N rows (to page through a long answer); with --max-tokens, the first N items of the answer\'s lists' -r
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l max-tokens -d 'Fit the output in about N tokens (bytes / 4): the rows that fit, then what was left out and the command that prints the next page' -r
complete -c llmc -n "__fish_llmc_using_subcommand graph" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand graph" -l json -d 'Print as JSON on stdout'
complete -c llmc -n "__fish_llmc_using_subcommand graph" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand graph" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand log" -l since -d 'Only commits authored at or after DATE (2024-03-01, yesterday, "3 months ago")' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l until -d 'Only commits authored at or before DATE' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l author -d 'Only commits whose author name or email contains NAME (any case)' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l grep -d 'Only commits whose message contains TEXT (any case)' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -s n -l limit -d 'At most N commits' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l offset -d 'Skip the first N commits (a later page)' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l max-tokens -d 'Fit the output in about N tokens (bytes / 4): the commits that fit, then how many were left out and the command that prints the next page' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand log" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand log" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand log" -l reverse -d 'Oldest first: the commit that introduced a definition or file at the top'
complete -c llmc -n "__fish_llmc_using_subcommand log" -l json -d 'Print as JSON on stdout'
complete -c llmc -n "__fish_llmc_using_subcommand log" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand log" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand search" -l mode -d 'lexical (BM25 over code-aware tokens), semantic (embeddings) or hybrid (both, fused); default from `search.mode`' -r -f -a "lexical\t''
semantic\t''
hybrid\t''"
complete -c llmc -n "__fish_llmc_using_subcommand search" -s k -l k -d 'Show this many hits (default from `search.k`)' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -l lang -d 'Only files of this language (e.g. rust, python, markdown)' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -l path -d 'Only files whose path matches this glob (e.g. \'src/**/*.rs\')' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -l offset -d 'Skip the first N hits (a later page of the -k best)' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -l max-tokens -d 'Fit the output in about N tokens (bytes / 4): the hits that fit, then how many were left out and the command that prints the next page' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand search" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand search" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand search" -l no-tests -d 'No tests, test fixtures or test data (as `ask --no-tests`)'
complete -c llmc -n "__fish_llmc_using_subcommand search" -l json -d 'Print as JSON on stdout'
complete -c llmc -n "__fish_llmc_using_subcommand search" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand search" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand eval" -s k -l k -d 'Cut-off for Recall@k, MRR@k and nDCG@k (and the sources each answer lists)' -r
complete -c llmc -n "__fish_llmc_using_subcommand eval" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand eval" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand eval" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand eval" -l compare -d 'Also ask every question through each retriever alone and through `llmc search --mode hybrid`, and print MRR@k of each beside ask\'s, per intent'
complete -c llmc -n "__fish_llmc_using_subcommand eval" -l json -d 'Print one JSON document on stdout: metrics overall, per intent and per question'
complete -c llmc -n "__fish_llmc_using_subcommand eval" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand eval" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -f -a "example" -d 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -f -a "show" -d 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
complete -c llmc -n "__fish_llmc_using_subcommand config; and not __fish_seen_subcommand_from example show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from example" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "example" -d 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
complete -c llmc -n "__fish_llmc_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llmc -n "__fish_llmc_using_subcommand completions" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand completions" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand completions" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand completions" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand completions" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand man" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand man" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand man" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand man" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand man" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -l index-wait -d 'With no index yet, wait this long for the first one before answering that indexing started (the index goes on being built)' -r
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -s C -l dir -d 'Run as if llmc was started in DIR' -r -F
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -l config -d 'Set a configuration key for this run, e.g. --config index.max_file_size=2000000' -r
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -l color -d 'Colour human output: auto (on a terminal, unless NO_COLOR is set), always or never' -r -f -a "auto\t'On a terminal, unless the NO_COLOR environment variable is set and not empty'
always\t'Always, even into a pipe (never in JSON)'
never\t'Never'"
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -s q -l quiet -d 'Print nothing on stderr but errors'
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -s v -l verbose -d 'Print more on stderr: where the root and the configuration came from, timings'
complete -c llmc -n "__fish_llmc_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "ask" -d 'Ask a question about the repository: an answer with sources, a confidence and a trace (indexes first when needed)'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "index" -d 'Index the repository (incrementally: only new and changed files are parsed)'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "status" -d 'Show what the index holds and what changed since'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "graph" -d 'Ask the code graph: callers, callees, definitions, imports, importers'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "log" -d 'The commits that changed a definition, a file or a directory, newest first'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "search" -d 'Raw retrieval: the chunks that best match QUERY, by BM25, embeddings or both'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "eval" -d 'Run a labelled set of questions (JSONL) through `ask` and score the answers'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "config" -d 'Print the documented example configuration, or the configuration in effect here'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "completions" -d 'Print a shell completion script on stdout (see the README for where to put it)'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "man" -d 'Print the man page (roff) on stdout, e.g. `llmc man | man -l -`'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "mcp" -d 'Serve the repository to coding agents over MCP on stdin/stdout (tools: ask, callers, callees, definition, imports, importers, history, search, status)'
complete -c llmc -n "__fish_llmc_using_subcommand help; and not __fish_seen_subcommand_from ask index status graph log search eval config completions man mcp help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c llmc -n "__fish_llmc_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "example" -d 'Print the example configuration: every key with its default and what it does (`llmc config example > llmc.toml`, then edit); needs no repository'
complete -c llmc -n "__fish_llmc_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print the configuration in effect here as TOML: every key with its value after llmc.toml, LLMC_* variables and --config, below comments saying which set what'
