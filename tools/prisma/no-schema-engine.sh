#!/bin/sh
# Stand-in for Prisma's schema engine, which `prisma generate` checks for but does not need.
# Migrations are applied by our own runner (npm run migrate), never by the schema engine.
echo "schema engine not available: migrations are applied by tools/admin migrate" >&2
exit 1
