#!/bin/bash
# Builds the project, step by step.
. ./lib/log.sh
source lib/util.sh

# Shadows log() from lib/log.sh: the last definition wins.
log() {
  echo "build: $*"
}

# Counts down, the fixture's recursion.
countdown() {
  local n=$1
  if [ "$n" -gt 0 ]; then
    log "$n"
    countdown $((n - 1))
  fi
}

# The entry point.
main() {
  require_tool tar || die "tar missing"
  countdown 3
  log "done: $(date +%s)"
}

main "$@"
