#!/bin/bash
# `server DIR [--console-address ...]` as MinIO takes it: S3Proxy on :9000 over DIR, as uid 1000.
set -euo pipefail
if [ "${1:-}" = server ]; then
  dir=${2:-/data}
  : "${MINIO_ROOT_USER:?MINIO_ROOT_USER is required}" "${MINIO_ROOT_PASSWORD:?MINIO_ROOT_PASSWORD is required}"
  mkdir -p "$dir"
  chown s3:s3 "$dir"
  config=$(mktemp)
  cat > "$config" <<PROPS
s3proxy.endpoint=http://0.0.0.0:9000
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$MINIO_ROOT_USER
s3proxy.credential=$MINIO_ROOT_PASSWORD
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$dir
PROPS
  chown s3:s3 "$config"
  chmod 600 "$config"
  exec setpriv --reuid=s3 --regid=s3 --init-groups java -Xmx256m -jar /opt/s3proxy/lib/s3proxy-*-jar-with-dependencies.jar --properties "$config"
fi
exec "$@"
