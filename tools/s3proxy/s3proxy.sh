#!/usr/bin/env bash
# S3Proxy, an S3 server that checks signatures and presigned-URL expiry, for the end-to-end
# suites (their global set-up installs and starts it) and for trying presigned links by hand,
# without Docker (from Maven Central):
#
#   tools/s3proxy/s3proxy.sh install      # the jar into .local/s3proxy/lib, once (skipped when present)
#   tools/s3proxy/s3proxy.sh start DIR    # config on first use, a free port, objects in DIR/data;
#                                         # prints S3_ENDPOINT and leaves the server running
#   tools/s3proxy/s3proxy.sh stop DIR     # stops that server (only that one)
#
# start/stop need the build (dist/); install needs Maven and a JDK (17+).
set -euo pipefail
cd "$(dirname "$0")/../.."

LIB=.local/s3proxy/lib
VERSION=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' tools/s3proxy/pom.xml)
# A fresh machine downloads about 55 MB; give up clearly rather than hang the test run.
INSTALL_TIMEOUT=${S3PROXY_INSTALL_TIMEOUT:-600}

install() {
  if [ -f "$LIB/s3proxy-$VERSION-jar-with-dependencies.jar" ]; then return 0; fi
  for tool in java mvn; do
    command -v "$tool" >/dev/null || { echo "s3proxy install: '$tool' is not on PATH (needs a JDK 17+ and Maven)" >&2; return 1; }
  done
  echo "installing S3Proxy $VERSION from Maven Central into $LIB" >&2
  local started=$SECONDS tmp="$LIB.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$(dirname "$LIB")"
  if ! timeout "$INSTALL_TIMEOUT" mvn -B -q -f tools/s3proxy/pom.xml dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$PWD/$tmp" >"$tmp.log" 2>&1; then
    echo "s3proxy install: mvn failed or took longer than ${INSTALL_TIMEOUT}s; its output:" >&2
    tail -n 40 "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log"
    return 1
  fi
  # All or nothing: a half-downloaded folder is never taken for an installed server.
  rm -rf "$LIB" "$tmp.log"
  mv "$tmp" "$LIB"
  echo "S3Proxy $VERSION installed in $((SECONDS - started)) s" >&2
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
