#!/usr/bin/env bash
# CTest openapi_lint: `redocly lint` of docs/api/openapi.yaml with tests/openapi/redocly.yaml, using the Redocly
# CLI pinned by tests/openapi/package-lock.json (installed by packaging/install-deps.sh with npm ci).
# Exit 77 (skipped) when the CLI is not installed, except in CI (CI set), where that is a failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
redocly="$here/node_modules/.bin/redocly"
if [ ! -x "$redocly" ]; then
    echo "openapi_lint: $redocly is missing; run packaging/install-deps.sh (or npm ci in tests/openapi)"
    if [ -n "${CI:-}" ]; then exit 1; fi
    echo "SKIPPED"
    exit 77
fi
cd "$root"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
exec "$redocly" lint --config tests/openapi/redocly.yaml --format stylish docs/api/openapi.yaml
