#!/usr/bin/env bash
# Whether two builds play the same games: `simulate --json` of 15 configurations (base 2-7
# players, 2nd edition, Edifice, Armada 3-8 players, teams, both expansions), every figure but
# the speed compared. Prints `same` or `DIFFERENT` per configuration; exits 1 on any difference.
#
#   scripts/same-games.sh BEFORE_BIN AFTER_BIN
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BEFORE_BIN AFTER_BIN" >&2
  exit 2
fi
old=$1 new=$2 bad=0
stats() {
  "$1" simulate $2 --json | python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("games_per_second"); print(json.dumps(d, sort_keys=True))'
}
while read -r args; do
  if [ "$(stats "$old" "$args")" == "$(stats "$new" "$args")" ]; then
    echo "same: $args"
  else
    echo "DIFFERENT: $args"
    bad=1
  fi
done <<'LIST'
-p 3 -g 3000 -s 7 -t 1
-p 4 -g 3000 -s 7 -t 1
-p 7 -g 2000 -s 7 -t 1
-p 2 -g 2000 -s 7 -t 1
-p 4 -g 2000 -s 7 -t 1 -e 2e
-p 4 -g 2000 -s 7 -t 1 --expansions edifice
-p 7 -g 1000 -s 7 -t 1 --expansions edifice
-p 3 -g 1500 -s 7 -t 1 --expansions armada
-p 4 -g 1500 -s 7 -t 1 --expansions armada
-p 5 -g 1000 -s 7 -t 1 --expansions armada
-p 7 -g 1000 -s 7 -t 1 --expansions armada
-p 8 -g 1000 -s 7 -t 1 --expansions armada
-p 6 -g 1000 -s 7 -t 1 --expansions armada --teams
-p 4 -g 1000 -s 7 -t 1 --expansions armada,edifice
-p 7 -g 800 -s 7 -t 1 --expansions armada,edifice
LIST
exit $bad
