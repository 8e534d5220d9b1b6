// Package command parses the text commands understood by kvstore.
package command

import (
	"errors"
	"strings"
)

// Op names a store operation.
type Op string

// The operations understood by the store.
const (
	OpGet Op = "GET"
	OpSet Op = "SET"
	OpDel Op = "DEL"
)

// Command is one parsed input line.
type Command struct {
	Op   Op
	Args []string
}

// Executor is anything that can apply a Command.
type Executor interface {
	// Execute applies cmd and returns the text to print.
	Execute(cmd Command) (string, error)
}

// ErrEmpty is returned for blank input lines.
var ErrEmpty = errors.New("empty command")

// ops maps upper-case operation names to their Op.
var ops = map[string]Op{"GET": OpGet, "SET": OpSet, "DEL": OpDel}

// Parse splits line into an operation and its arguments.
func Parse(line string) (Command, error) {
	tokens := strings.Fields(line)
	if len(tokens) == 0 {
		return Command{}, ErrEmpty
	}
	op, ok := ops[strings.ToUpper(tokens[0])]
	if !ok {
		return Command{}, errors.New("unknown operation: " + tokens[0])
	}
	args := parseArgs(tokens[1:])
	if len(args) == 0 {
		return Command{}, errors.New("missing key")
	}
	return Command{Op: op, Args: args}, nil
}

// parseArgs rejoins quoted tokens such as `"hello world"` into one argument.
func parseArgs(tokens []string) []string {
	if len(tokens) == 0 {
		return nil
	}
	if strings.HasPrefix(tokens[0], "\"") {
		return parseQuoted(tokens, "")
	}
	return append([]string{tokens[0]}, parseArgs(tokens[1:])...)
}

// parseQuoted collects tokens until the closing quote, then hands the rest back to parseArgs.
func parseQuoted(
	tokens []string,
	acc string,
) []string {
	if len(tokens) == 0 {
		return []string{acc}
	}
	joined := strings.TrimSpace(acc + " " + tokens[0])
	if strings.HasSuffix(tokens[0], "\"") {
		return append([]string{strings.Trim(joined, "\"")}, parseArgs(tokens[1:])...)
	}
	return parseQuoted(tokens[1:], joined)
}
