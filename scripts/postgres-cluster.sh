#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, from Debian's postgresql
# package (installed by scripts/test.sh when missing).
#
#   scripts/postgres-cluster.sh start DIR   creates and starts a cluster in
#                                           the empty folder DIR and prints
#                                           its URL (for NIMJUDGE_TEST_POSTGRES_URL)
#   scripts/postgres-cluster.sh start DIR ADDRESS
#                                           the same, also listening on TCP
#                                           port 5432 of ADDRESS and trusting
#                                           ADDRESS's subnet (the multi-host
#                                           test's database host)
#   scripts/postgres-cluster.sh stop DIR    stops it (the folder stays)
#
# The cluster listens on a Unix socket inside DIR only (no TCP port, so runs
# never collide) unless given an ADDRESS, trusts local connections, and trades
# durability for speed (fsync off): it holds nothing but test databases. PostgreSQL refuses to
# run as root, so as root the server runs as the `postgres` user.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR [ADDRESS] | stop DIR" >&2
  exit 2
}
(($# == 2 || $# == 3)) || usage
action=$1
dir=$2
address=${3:-}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [[ -z $bindir || ! -x $bindir/initdb ]]; then
  echo "PostgreSQL's server programs are missing: install Debian's postgresql package" >&2
  exit 1
fi

as_server_user() {
  if [[ $(id -u) == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case $action in
  start)
    mkdir -p "$dir"
    [[ $(id -u) == 0 ]] && chown postgres: "$dir"
    as_server_user "$bindir/initdb" --pgdata="$dir/data" --username=postgres \
      --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2
      exit 1
    }
    if [[ -n $address ]]; then
      echo "host all all samenet trust" >>"$dir/data/pg_hba.conf"
    fi
    mkdir -p "$dir/socket"
    [[ $(id -u) == 0 ]] && chown postgres: "$dir/socket"
    as_server_user "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
      --options="-c listen_addresses='$address' -c unix_socket_directories='$dir/socket' \
        -c max_connections=400 -c fsync=off -c synchronous_commit=off \
        -c full_page_writes=off" start >/dev/null || {
      cat "$dir/server.log" >&2
      exit 1
    }
    if [[ -n $address ]]; then
      echo "postgres://postgres@$address/postgres"
    else
      echo "postgres://postgres@localhost/postgres?host=$dir/socket"
    fi
    ;;
  stop)
    as_server_user "$bindir/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    ;;
  *) usage ;;
esac
