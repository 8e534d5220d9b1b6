#!/usr/bin/env bash
# Logging helpers sourced by the scripts.

# Prints a message with a prefix.
log() {
  printf '[%s] %s\n' "$1" "$2"
}

# Reports an error and stops.
die() {
  log error "$1" >&2
  exit 1
}
