#!/bin/bash
# Brings up a single-node Slurm (munged, slurmctld, slurmd) in the background and records their PIDs
# in $STATE/pids, so that down.sh stops exactly those. Installs the packages when missing.
#
#   bash .ci/slurm/up.sh [TOKEN]    # TOKEN names this user of the cluster (default: the parent's pid)
#   bash .ci/slurm/down.sh [TOKEN]
#
# A cluster that already answers (started by an earlier up.sh, or a real one) is used as it is; the
# daemons are stopped by the last down.sh of the bring-ups sharing them.
# Facts this relies on (Debian 12, Slurm 22.05, munge 0.5.15, no systemd as PID 1): /run/munge is
# normally created by systemd; munged refuses to run as root, so it runs as the munge user;
# proctrack/linuxproc + task/none need no cgroups; DefMemPerCPU keeps an array task from claiming the
# whole node's memory (tasks would run one at a time); batch_sched_delay=0 starts batch jobs at once.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/common.sh"
token="${1:-$PPID}"

log() { echo "slurm up: $*" >&2; }

sh "$here/install.sh"
mkdir -p "$STATE/users" "$STATE/log" "$STATE/spool" "$STATE/ctld"
exec 9>"$LOCK"
flock -w 120 9 || { log "another bring-up holds $LOCK"; exit 1; }

answers() { timeout 5 sinfo -h -o %T >/dev/null 2>&1; }

# Drop users whose bring-up process is gone (a killed CI run), then register this one.
for f in "$USERS"/*; do [ -e "$f" ] || continue; kill -0 "$(cat "$f")" 2>/dev/null || rm -f "$f"; done
echo "${CCLAB_SLURM_OWNER_PID:-$PPID}" >"$USERS/$token"

if [ -s "$PIDS" ] && answers; then
  log "using the running cluster ($(sinfo -h -o '%n %T' | head -1))"
  exit 0
fi
if [ ! -s "$PIDS" ] && [ -f "$CONF" ] && ! grep -qF "$CONF_TAG" "$CONF"; then
  if answers; then log "using the site's Slurm ($CONF)"; exit 0; fi
  log "$CONF exists and is not ours: not overwriting it"; exit 1
fi
: >"$PIDS"

# munge: its runtime folder, then the daemon as the munge user (setpriv execs, so $! is munged).
install -d -o munge -g munge -m 0755 /run/munge
[ -s /etc/munge/munge.key ] || { log "no /etc/munge/munge.key"; exit 1; }
setpriv --reuid=munge --regid=munge --init-groups -- /usr/sbin/munged -F \
  --log-file="$STATE/log/munged.log" --pid-file=/run/munge/munged.pid >/dev/null 2>&1 9>&- &
echo "$! munged" >>"$PIDS"
for _ in $(seq 50); do [ -S /run/munge/munge.socket.2 ] && break; sleep 0.1; done
munge -n </dev/null | unmunge >/dev/null || { log "munge does not work (see $STATE/log/munged.log)"; exit 1; }

# The node as slurmd sees it (declaring more CPUs or memory than the machine has leaves it 'inval').
cpus="$(slurmd -C | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' | head -1)"
mem="$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)"
mkdir -p "$(dirname "$CONF")"
cat >"$CONF.tmp" <<CONF
$CONF_TAG: rewritten by every bring-up
ClusterName=cclab
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
DefMemPerCPU=$((mem / cpus / 2))
ReturnToService=2
MinJobAge=600
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
mv "$CONF.tmp" "$CONF"

# The daemons must not inherit the lock (fd 9): down.sh would wait for it forever.
# -c: start from a clean state (no jobs left from an earlier bring-up); -D: stay in the foreground
# so that $! is the daemon itself.
/usr/sbin/slurmctld -D -c >>"$STATE/log/slurmctld.out" 2>&1 9>&- &
echo "$! slurmctld" >>"$PIDS"
/usr/sbin/slurmd -D -N localhost >>"$STATE/log/slurmd.out" 2>&1 9>&- &
echo "$! slurmd" >>"$PIDS"

for _ in $(seq 150); do
  state="$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null || true)"
  case "$state" in idle|mixed|allocated) log "up: node localhost $state ($cpus CPUs, ${mem} MB), pids $(cut -d' ' -f1 "$PIDS" | tr '\n' ' ')"; exit 0 ;; esac
  sleep 0.2
done
log "the node did not become idle (state '${state:-none}'); logs in $STATE/log"
exit 1
