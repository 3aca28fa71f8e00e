#!/bin/sh
# Installs Debian's single-node Slurm pieces (munge, slurmctld, slurmd, slurm-client) when any is
# missing, as .ci/install-chromium.sh does for chromium. Idempotent. apt-get waits for the dpkg lock
# (another install running at the same time) instead of failing at once.
set -eu
if command -v munged >/dev/null 2>&1 && command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v sbatch >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "slurm install: not root and no sudo" >&2; exit 1; fi
fi
# DPkg::Lock::Timeout covers the dpkg frontend lock; `apt-get update` holds the lists lock, which it
# does not wait for: retry it a few times.
i=0
until $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq; do
  i=$((i + 1)); [ "$i" -ge 30 ] && exit 1; sleep 5
done
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
  munge slurmctld slurmd slurm-client >/dev/null
command -v sbatch >/dev/null
