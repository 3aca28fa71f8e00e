# Shared by up.sh and down.sh (sourced). The cluster's state lives outside /tmp: slurmd executes the
# batch scripts from its spool folder.
STATE="${CCLAB_SLURM_STATE:-/var/lib/cclab-slurm}"
CONF=/etc/slurm/slurm.conf       # the path client commands use (compiled-in default)
CONF_TAG="# cclab single-node test cluster (.ci/slurm/up.sh)"
PIDS="$STATE/pids"               # "<pid> <program>" per daemon up.sh started
USERS="$STATE/users"             # one file per bring-up still using the cluster
LOCK="$STATE/lock"

# Whether a recorded pid still runs the program we started (a pid can be reused after it exits).
is_ours() { # pid program
  [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q "$2"
}
