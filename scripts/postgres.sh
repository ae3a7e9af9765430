#!/usr/bin/env bash
# Installs (Debian's postgresql), starts a local PostgreSQL cluster and makes the role and database the
# PostgreSQL tests use; prints the DATABASE_URL to export. Fails (exit 1) when the server cannot start.
# Needs root (apt-get, the postgres user). Usage: export DATABASE_URL="$(bash scripts/postgres.sh)"
set -euo pipefail

ROLE=tessera
DB=tessera
PASSWORD=tessera

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VERSION main"; then
  pg_createcluster "$VERSION" main >&2
fi
pg_ctlcluster "$VERSION" main start >&2 2>/dev/null || true
PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')"
STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}')"
if [ "$STATUS" != "online" ]; then
  echo "postgres.sh: the PostgreSQL $VERSION cluster did not start (status: $STATUS); see /var/log/postgresql/" >&2
  exit 1
fi

for _ in $(seq 1 50); do
  if su postgres -c "pg_isready -q -p $PORT"; then break; fi
  sleep 0.2
done
su postgres -c "pg_isready -q -p $PORT" || { echo "postgres.sh: PostgreSQL on port $PORT does not answer" >&2; exit 1; }

su postgres -c "psql -q -p $PORT -v ON_ERROR_STOP=1" >&2 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD';
  END IF;
END \$\$;
SQL
if ! su postgres -c "psql -tA -p $PORT -c \"SELECT 1 FROM pg_database WHERE datname = '$DB'\"" | grep -q 1; then
  su postgres -c "createdb -p $PORT -O $ROLE $DB" >&2
fi

URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
psql "$URL" -tA -c 'SELECT 1' >/dev/null || { echo "postgres.sh: cannot connect as $ROLE" >&2; exit 1; }
echo "$URL"
