#!/bin/sh
# Merge the shards run-shard.sh wrote into $RESULTS/merged and print the report.
# Exits non-zero (and lists them) if games are missing: rerun the failed shards, then merge
# again.
#
#   RESULTS  the results directory the shards wrote into
#   FORMAT   report format: table (default), json, csv, md or svg
#   ARENA    the arena binary (default: `arena` on PATH)
set -eu
: "${RESULTS:?set RESULTS to the results directory}"
set -- "$RESULTS"/shard-*
if [ ! -d "$1" ]; then
    echo "merge.sh: no shard directories in $RESULTS" >&2
    exit 2
fi
exec "${ARENA:-arena}" tournament merge "$@" --out "$RESULTS/merged" --format "${FORMAT:-table}"
