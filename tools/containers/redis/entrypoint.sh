#!/bin/sh
# As the official image: `redis-server ...` runs as `redis` with protected mode off; anything else runs as given.
set -e
if [ "$1" = redis-server ]; then
  shift
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
