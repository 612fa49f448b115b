#!/usr/bin/env bash
# Starts the PostgreSQL and Redis the tests need when they are not answering,
# installing them from Debian's packages on a machine that lacks them.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { [[ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" == PONG ]]; }

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

if ! command -v pg_ctlcluster >/dev/null || ! command -v redis-server >/dev/null; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null
fi

if ! pg_up; then
  version=$(ls /etc/postgresql | sort -V | tail -n1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  # A fresh cluster answers only on the socket with peer auth: open loopback
  # with trust for the local test user, as on the development machines.
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
  fi
fi
for _ in $(seq 1 30); do pg_up && break; sleep 1; done
pg_up || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }

if ! redis_up; then
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 30); do redis_up && break; sleep 1; done
redis_up || { echo "Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }
echo "PostgreSQL and Redis are answering"
