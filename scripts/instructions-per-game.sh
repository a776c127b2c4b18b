#!/usr/bin/env bash
# Instructions per random game, as callgrind counts them (deterministic, unlike wall-clock time):
# `simulate` of 1,001 games minus `simulate` of 1 game, divided by 1,000.
#
#   scripts/instructions-per-game.sh BIN PLAYERS [more simulate arguments]
#   scripts/instructions-per-game.sh target/release/wonders 4 --expansions armada
#
# Needs valgrind (Debian package `valgrind`).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BIN PLAYERS [simulate arguments...]" >&2
  exit 2
fi
bin=$1 players=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
count() {
  local games=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$games" \
    "$bin" simulate --players "$players" --games "$games" --seed 1 --threads 1 "$@" >/dev/null 2>&1
  callgrind_annotate "$dir/cg.$games" >"$dir/annotated.$games" 2>/dev/null
  awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}' "$dir/annotated.$games"
}
many=$(count 1001 "$@")
one=$(count 1 "$@")
echo $(((many - one) / 1000))
