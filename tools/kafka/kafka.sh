#!/usr/bin/env bash
# A real Apache Kafka broker for tests and the local stack, without Docker (the version
# docker-compose.yml runs, from Maven Central):
#
#   tools/kafka/kafka.sh install        # jars into .local/kafka/lib, once (skipped when present)
#   tools/kafka/kafka.sh start DIR      # formats DIR on first use, starts one KRaft node on free
#                                       # ports, creates the kafka-init topics; prints host:port
#   tools/kafka/kafka.sh start DIR --secure  # the same plus a SASL_SSL (SCRAM-SHA-512) and a
#                                       # mutual-TLS listener, CA in DIR/pki; their settings on stderr
#   tools/kafka/kafka.sh stop DIR       # stops that broker (only that one)
#   tools/kafka/kafka.sh restart DIR    # stop, then start again on the same data and ports
#
# start/stop/restart need the build (dist/); install needs Maven and a JDK (17+).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/maven-install.sh

LIB=.local/kafka/lib
VERSION=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' tools/kafka/pom.xml)
# A fresh machine downloads about 50 MB; give up clearly rather than hang the test run.
INSTALL_TIMEOUT=${KAFKA_INSTALL_TIMEOUT:-600}

install() {
  maven_install "Kafka $VERSION" tools/kafka/pom.xml "$LIB" "kafka-tools-$VERSION.jar" "$INSTALL_TIMEOUT"
}

case "${1:-}" in
  install) install ;;
  start | stop | restart)
    [ -n "${2:-}" ] || { echo "usage: $0 $1 DIR" >&2; exit 2; }
    [ "$1" = stop ] || install
    exec node dist/tools/kafka/broker.js "$@"
    ;;
  *) echo "usage: $0 install | start DIR [--secure] | stop DIR | restart DIR" >&2; exit 2 ;;
esac
