#!/usr/bin/env bash
# brickyard sweep --slurm on a real Slurm (label `slurm`): starts a single-node cluster on this
# machine (munged with a generated key, slurmctld and slurmd on localhost with a generated
# slurm.conf, all in a temporary folder, on free ports), runs a 4-point sweep through --slurm
# and checks that its table equals the --local one; then cancels a resubmitted task while the
# sweep waits (the sweep must list it with its Slurm state and log, exit 1) and reruns (only
# that point is submitted again). The daemons are stopped on exit, also on failure.
#
# Usage: slurm_test.sh BRICKYARD WORK_DIR. Needs root (slurmd) and Debian's slurm-wlm and munge
# (scripts/setup.sh installs them); without them it fails, it never skips.
set -euo pipefail

brickyard="$(realpath "$1")"
work="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python=/usr/bin/python3
start_time=$SECONDS

fail() {
  echo "slurm_test: FAIL: $*" >&2
  exit 1
}
step() { echo "slurm_test: [$((SECONDS - start_time)) s] $*"; }

[ "$(id -u)" = 0 ] || fail "must run as root (slurmd runs the tasks as their user and needs root)"
for tool in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v "$tool" >/dev/null ||
    fail "$tool is not installed: Debian packages slurm-wlm and munge (bash scripts/setup.sh)"
done

rm -rf "$work"
mkdir -p "$work"
# The daemons' folder: short (the munge socket path must fit a sockaddr_un) and world-readable
# (munged refuses a socket in a folder others cannot reach).
cluster="$(mktemp -d /tmp/by-slurm.XXXXXX)"
chmod 755 "$cluster"

stop_cluster() {
  local status=$?
  set +e
  for d in slurmd slurmctld munged; do
    [ -f "$cluster/$d.pid" ] && kill "$(cat "$cluster/$d.pid")" 2>/dev/null
  done
  # Wait for them to go (a daemon left behind would keep its port).
  for _ in $(seq 50); do
    alive=0
    for d in slurmd slurmctld munged; do
      [ -f "$cluster/$d.pid" ] && kill -0 "$(cat "$cluster/$d.pid")" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.2
  done
  for d in slurmd slurmctld munged; do
    [ -f "$cluster/$d.pid" ] && kill -9 "$(cat "$cluster/$d.pid")" 2>/dev/null
  done
  if [ $status != 0 ]; then
    echo "--- slurmctld.log (tail)"; tail -n 20 "$cluster/slurmctld.log" 2>/dev/null
    echo "--- slurmd.log (tail)"; tail -n 20 "$cluster/slurmd.log" 2>/dev/null
  fi
  rm -rf "$cluster"
  step "cluster stopped"
  exit $status
}
trap stop_cluster EXIT

free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  fail "no free TCP port"
}

# --- the cluster
head -c 1024 /dev/urandom >"$cluster/munge.key"
chmod 600 "$cluster/munge.key"
munged --force --key-file="$cluster/munge.key" --socket="$cluster/munge.sock" \
  --pid-file="$cluster/munged.pid" --log-file="$cluster/munged.log" \
  --seed-file="$cluster/munged.seed" || fail "munged did not start"
host="$(hostname -s)"
ctld_port="$(free_port)"
slurmd_port="$(free_port)"
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))
mkdir -p "$cluster/state" "$cluster/spool"
cat >"$cluster/slurm.conf" <<EOF
ClusterName=brickyard-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$cluster/munge.sock
CredType=cred/munge
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=bytest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$cluster/slurm.conf"
slurmctld || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
for i in $(seq 100); do
  state="$(sinfo -h -n "$host" -o %t 2>/dev/null || true)"
  [ "$state" = idle ] && break
  [ "$i" = 100 ] && fail "the node did not become idle (state '$state')"
  sleep 0.3
done
step "single-node Slurm up: $host, slurmctld port $ctld_port, slurmd port $slurmd_port"

# --- the sweep: 4 tiny-sized points, the mlp test model on the functional model, no area
models="$root/testbenches/compiler/models"
cat >"$work/spec.yaml" <<EOF
name: slurmtest
base: tiny
grid:
  memory.scratchpad.capacity_kib: [4, 8]
  soc.host_cpi_tenths: [10, 20]
models:
  - path: $models/mlp.onnx
    input: $models/mlp.input.npy
eval: {model: func, area: false}
slurm: {partition: bytest, time: "00:10:00", cpus_per_task: 1}
EOF

step "--local -j 2"
timeout 300 "$brickyard" sweep "$work/spec.yaml" --local -j 2 -o "$work/local" \
  --cache-dir "$work/cache-local" || fail "the local sweep failed"

step "--slurm"
timeout 300 "$brickyard" sweep "$work/spec.yaml" --slurm --poll 1 -o "$work/slurm" \
  --cache-dir "$work/cache-slurm" || fail "the Slurm sweep failed"
script="$work/slurm/slurm/sweep-1.sbatch"
[ -f "$script" ] || fail "the batch script $script is not kept"
grep -q -- '^#SBATCH --array=0-3$' "$script" || fail "$script: no --array=0-3"
grep -q -- '^#SBATCH --partition=bytest$' "$script" || fail "$script: no partition"
grep -q -- '^#SBATCH --cpus-per-task=1$' "$script" || fail "$script: no --cpus-per-task"
job="$($python -c 'import json,sys; print(json.load(open(sys.argv[1]))["submissions"][0]["job"])' \
  "$work/slurm/slurm/jobs.json")"
for t in 0 1 2 3; do
  log="$work/slurm/slurm/logs/${job}_$t.out"
  grep -q "brickyard sweep: point p0$t ok" "$log" || fail "task $t: no 'point p0$t ok' in $log"
  grep -q "\"slurm_job\": \"${job}_$t\"" "$work/slurm/points/p0$t/result.json" ||
    fail "point p0$t was not run by Slurm task ${job}_$t"
done

# The two tables must agree on everything but run times and cache details.
same_results() {
  $python - "$1" "$2" <<'EOF'
import json, sys
def rows(path):
    out = []
    for r in json.load(open(path))["rows"]:
        r = {k: v for k, v in r.items() if k not in ("wall_seconds",)}
        out.append(r)
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if len(a) != 4 or any(r["status"] != "ok" for r in a + b):
    sys.exit(f"expected 4 ok rows each, got {[r['status'] for r in a]} and {[r['status'] for r in b]}")
for x, y in zip(a, b):
    diff = {k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)}
    if diff:
        sys.exit(f"point {x['id']}: local and Slurm differ: {diff}")
print("local and Slurm tables equal: " + ", ".join(f"{r['id']} {r['cycles']} cycles" for r in a))
EOF
}
same_results "$work/local/results.json" "$work/slurm/results.json" || fail "tables differ"

# --- a task cancelled while the sweep waits: listed with its state and log, exit 1
step "cancel a resubmitted task"
rm "$work/slurm/points/p02/result.json"
# The node drained, so that the task is still pending when it is cancelled (no race).
scontrol update nodename="$host" state=drain reason=slurm_test
set +e
timeout 300 "$brickyard" sweep "$work/spec.yaml" --slurm --poll 1 -o "$work/slurm" \
  --cache-dir "$work/cache-slurm" >"$work/cancel.out" 2>"$work/cancel.err" &
sweep_pid=$!
set -e
for i in $(seq 100); do
  [ -f "$work/slurm/slurm/sweep-2.sbatch" ] && grep -q '"job"' "$work/slurm/slurm/jobs.json" &&
    [ "$($python -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["submissions"]))' \
      "$work/slurm/slurm/jobs.json")" = 2 ] && break
  [ "$i" = 100 ] && fail "no second submission"
  sleep 0.2
done
job2="$($python -c 'import json,sys; print(json.load(open(sys.argv[1]))["submissions"][1]["job"])' \
  "$work/slurm/slurm/jobs.json")"
grep -q -- '^#SBATCH --array=2$' "$work/slurm/slurm/sweep-2.sbatch" ||
  fail "the resubmission is not only point 2"
scancel "$job2"
scontrol update nodename="$host" state=resume
set +e
wait $sweep_pid
status=$?
set -e
cat "$work/cancel.err"
[ $status = 1 ] || fail "a cancelled task must make the sweep exit 1 (got $status)"
grep -q "p02 (.*Slurm task ${job2}_2 CANCELLED, log $work/slurm/slurm/logs/${job2}_2.out" \
  "$work/cancel.err" || fail "the cancelled task is not listed with its state and log"

step "rerun: only the point without a result is submitted"
timeout 300 "$brickyard" sweep "$work/spec.yaml" --slurm --poll 1 -o "$work/slurm" \
  --cache-dir "$work/cache-slurm" 2>"$work/rerun.err" || { cat "$work/rerun.err"; fail "rerun"; }
grep -q -- '^#SBATCH --array=2$' "$work/slurm/slurm/sweep-3.sbatch" ||
  fail "the rerun did not submit point 2 alone"
grep -q "3 already finished, 1 to run" "$work/rerun.err" || fail "the rerun redid finished points"
same_results "$work/local/results.json" "$work/slurm/results.json" || fail "tables differ"
step "passed"
