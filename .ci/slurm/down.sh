#!/bin/bash
# Stops the daemons up.sh recorded in $STATE/pids, by pid (never by name), once no other bring-up
# still uses them. See up.sh.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/common.sh"
token="${1:-$PPID}"
[ -d "$STATE" ] || exit 0
exec 9>"$LOCK"
flock -w 120 9 || { echo "slurm down: another bring-up holds $LOCK" >&2; exit 1; }

rm -f "$USERS/$token"
for f in "$USERS"/*; do [ -e "$f" ] || continue; kill -0 "$(cat "$f")" 2>/dev/null || rm -f "$f"; done
if compgen -G "$USERS/*" >/dev/null; then
  echo "slurm down: still used by $(ls "$USERS" | tr '\n' ' '); leaving it running" >&2
  exit 0
fi
[ -s "$PIDS" ] || exit 0
# slurmd first (it hosts the job steps), munged last (the others authenticate through it).
for prog in slurmd slurmctld munged; do
  while read -r pid name; do
    [ "$name" = "$prog" ] && is_ours "$pid" "$name" && kill -TERM "$pid" 2>/dev/null
  done <"$PIDS"
done
for _ in $(seq 100); do
  alive=0
  while read -r pid name; do is_ours "$pid" "$name" && alive=1; done <"$PIDS"
  [ "$alive" = 0 ] && break
  sleep 0.1
done
while read -r pid name; do is_ours "$pid" "$name" && kill -KILL "$pid" 2>/dev/null; done <"$PIDS"
echo "slurm down: stopped $(cut -d' ' -f1 "$PIDS" | tr '\n' ' ')" >&2
: >"$PIDS"
