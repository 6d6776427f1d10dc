#!/usr/bin/env bash
# The SNAP provider simulator alone on this machine (Postgres, keys made per start into tmp/snap-sim):
# for pointing a service started by hand at a bank. `npm run start:local` starts one of its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/node.sh
source tools/lib/services.sh
ensure_node
ensure_postgres
ensure_built
exec node dist/tools/dev/snap-sim.js
