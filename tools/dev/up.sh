#!/usr/bin/env bash
# The whole system on this machine: installs, builds, migrates, starts gateway, ledger, payout
# and workers as separate processes on the Redis Streams bus, seeds a demo merchant and prints
# its token and a curl line. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/services.sh
ensure_postgres
ensure_redis
ensure_built
exec node dist/tools/dev/up.js
