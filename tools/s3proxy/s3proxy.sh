#!/usr/bin/env bash
# S3Proxy, an S3 server that checks signatures and presigned-URL expiry: the object store of the
# local runner, the tests, the benches and chaos (each starts its own, installing it on first
# use), and for trying presigned links by hand, without Docker (from Maven Central):
#
#   tools/s3proxy/s3proxy.sh install      # the jar into .local/s3proxy/lib, once (skipped when present)
#   tools/s3proxy/s3proxy.sh start DIR    # a free port (kept in DIR), objects in DIR/data, new random
#                                         # credentials; prints S3_ENDPOINT, S3_ACCESS_KEY and
#                                         # S3_SECRET_KEY lines and leaves the server running
#   tools/s3proxy/s3proxy.sh stop DIR     # stops that server (only that one)
#
# start/stop need the build (dist/); install needs Maven and a JDK (17+).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/maven-install.sh

LIB=.local/s3proxy/lib
VERSION=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' tools/s3proxy/pom.xml)
# A fresh machine downloads about 55 MB; give up clearly rather than hang the test run.
INSTALL_TIMEOUT=${S3PROXY_INSTALL_TIMEOUT:-600}

install() {
  maven_install "S3Proxy $VERSION" tools/s3proxy/pom.xml "$LIB" "s3proxy-$VERSION-jar-with-dependencies.jar" "$INSTALL_TIMEOUT"
}

case "${1:-}" in
  install) install ;;
  start | stop)
    [ -n "${2:-}" ] || { echo "usage: $0 $1 DIR" >&2; exit 2; }
    [ "$1" = stop ] || install
    exec node dist/tools/s3proxy/server.js "$1" "$2"
    ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
