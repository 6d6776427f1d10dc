#!/bin/bash
# The official image's contract, reduced to what the compose file uses: on an empty PGDATA, initdb
# with POSTGRES_USER as the superuser (password POSTGRES_PASSWORD, scram-sha-256 from the
# network) and create POSTGRES_DB; then run the server as `postgres`, listening on all interfaces.
set -euo pipefail
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ "${1:-}" = postgres ]; then
  shift
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 > /dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start > /dev/null
      as_postgres psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -c "CREATE DATABASE \"$db\"" > /dev/null
      as_postgres pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
    fi
    echo "initialised $PGDATA: user $user, database $db"
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
