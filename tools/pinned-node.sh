#!/usr/bin/env bash
# `node "$@"` on the version in .nvmrc (installed into .local/node on first use, see
# tools/lib/node.sh): the npm scripts run the admin CLI, the benchmarks, chaos and the test
# suites through it, so they and every process they start use the pinned Node.js whatever
# node the shell has.
set -euo pipefail
source "$(dirname "$0")/lib/node.sh"
ensure_node
exec node "$@"
