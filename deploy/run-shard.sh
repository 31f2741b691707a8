#!/bin/sh
# Run this task's shard of a tournament: the step every cluster engine repeats N times.
#
#   TOURNAMENT  the tournament file (bots' paths are relative to it)
#   SHARDS      how many shards (= completions of the Indexed Job / tasks of the array)
#   RESULTS     a directory on storage every task can reach; this task writes
#               $RESULTS/shard-K (K: its 0-based index), merge.sh combines them
#   JOBS        parallel games in this task (default: all cores it sees)
#   ARENA       the arena binary (default: `arena` on PATH)
#
# The index comes from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or
# SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (Slurm array); `arena tournament run
# --shard N` reads the same variables. A task that is restarted resumes its shard.
set -eu
: "${TOURNAMENT:?set TOURNAMENT to the tournament file}"
: "${SHARDS:?set SHARDS to the number of shards}"
: "${RESULTS:?set RESULTS to the results directory}"
if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    index=$JOB_COMPLETION_INDEX
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
else
    echo "run-shard.sh: no shard index: set JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID" >&2
    exit 2
fi
set -- tournament run "$TOURNAMENT" --shard "$SHARDS" --out "$RESULTS/shard-$index" --quiet
if [ -n "${JOBS:-}" ]; then
    set -- "$@" --jobs "$JOBS"
fi
exec "${ARENA:-arena}" "$@"
