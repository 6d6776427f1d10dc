#!/usr/bin/env bash
# Generates the Prisma 7 client (prisma-client generator, driver adapter, no query engine).
# `prisma generate` insists on a schema-engine binary even though generation does not use it,
# and it cannot be downloaded offline; any executable satisfies the check (see docs/decisions/0002).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-$PWD/tools/prisma/no-schema-engine.sh}"
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
exec npx --no-install prisma generate "$@"
