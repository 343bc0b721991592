#!/bin/sh
# Install or update Westeros on this machine, then restart it: run as root, after the service user
# pulled (the checkout is the service user's: git refuses, as "dubious ownership", to work in it as
# root), or the first time after the steps of deploy/README.md:
#
#   runuser -u westeros -- git -C /srv/westeros pull --ff-only && /srv/westeros/deploy/deploy.sh
#   NO_MIGRATE=1 /srv/westeros/deploy/deploy.sh   the same without migrating (every machine but the first)
#
# Every step but systemctl runs as the service user (RUN_AS), with the services' settings
# (ENV_FILE), in the checkout this script is in (APP).
#
# Order matters: migrations run BEFORE the processes restart, so the new code never meets an old
# schema (the old code meets the new one for a moment: keep migrations additive). With several
# machines, deploy one (it migrates), then the others with NO_MIGRATE=1.
set -eu

APP=${APP:-$(cd "$(dirname "$0")/.." && pwd)}
ENV_FILE=${ENV_FILE:-/etc/westeros/env}
RUN_AS=${RUN_AS:-westeros}

# Every step as the service user, with the services' environment.
as_app() {
    runuser -u "$RUN_AS" -- sh -c 'set -a; . "$0"; set +a; cd "$1"; shift; exec "$@"' "$ENV_FILE" "$APP" "$@"
}

cd "$APP"
[ -x .venv/bin/python ] || as_app python3 -m venv .venv
as_app .venv/bin/pip install --quiet --upgrade pip
as_app .venv/bin/pip install --quiet --editable .
# Stops here on a setting a public site must not run with (no SECRET_KEY, no EMAIL_HOST, a loopback
# SITE_URL, HTTPS hardening off...): nothing was changed yet.
as_app .venv/bin/python manage.py check --deploy --fail-level WARNING
if [ -z "${NO_MIGRATE:-}" ]; then
    as_app .venv/bin/python manage.py migrate --no-input
fi
# locale/*.po -> .mo (not in the repository): without them every page is English (issue 29)
as_app .venv/bin/python manage.py compile_translations
as_app .venv/bin/python manage.py collectstatic --no-input -v 0
systemctl daemon-reload
systemctl restart westeros.target
systemctl --no-pager --lines=0 status 'westeros-*' || true
