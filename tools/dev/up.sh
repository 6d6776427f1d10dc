#!/usr/bin/env bash
# The whole system on this machine, on the Node.js of .nvmrc: installs, builds, migrates, starts
# the object store (S3Proxy: signed requests only, new random credentials per start), then
# gateway, ledger, payout and workers as separate processes on the Redis Streams bus
# (BUS_TRANSPORT=kafka: on a Kafka broker of its own, installed from Maven Central on first use,
# or on KAFKA_BROKERS), seeds a demo merchant and prints its token and a curl line, and the
# dashboard's and console's URLs with a demo user's sign-in for each. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/node.sh
source tools/lib/services.sh
ensure_node
ensure_postgres
ensure_redis
if [ "${BUS_TRANSPORT:-}" = kafka ] && [ -z "${KAFKA_BROKERS:-}" ]; then ensure_kafka_installed; fi
ensure_s3proxy_installed
ensure_built
exec node dist/tools/dev/up.js
