#!/bin/sh
# A backup of the Westeros database: pg_dump in PostgreSQL's custom format (compressed, restorable
# table by table) into BACKUP_DIR; dumps older than KEEP_DAYS days are deleted. Run daily by
# deploy/systemd/westeros-backup.timer, or by hand with the services' environment:
#   runuser -u westeros -- sh -c 'set -a; . /etc/westeros/env; /srv/westeros/deploy/backup.sh'
# Restore (README, "Embedded mode and production"):
#   systemctl stop westeros.target
#   pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" /var/backups/westeros/westeros-....dump
#   systemctl start westeros.target
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set (source /etc/westeros/env)}"
BACKUP_DIR=${BACKUP_DIR:-/var/backups/westeros}
KEEP_DAYS=${KEEP_DAYS:-14}

mkdir -p "$BACKUP_DIR"
file="$BACKUP_DIR/westeros-$(date -u +%Y%m%dT%H%M%SZ).dump"
# Written under another name first: a dump cut short is never taken for a good one.
pg_dump --format=custom --no-owner --file="$file.partial" "$DATABASE_URL"
mv "$file.partial" "$file"
find "$BACKUP_DIR" -name 'westeros-*.dump' -mtime +"$KEEP_DAYS" -delete
echo "$file"
