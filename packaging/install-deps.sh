#!/usr/bin/env bash
# Installs every Debian package RechargeDesk needs to build, test and benchmark.
# Idempotent; run as root (or through sudo) on Debian 12. Needs only apt.
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake ninja-build pkg-config git ca-certificates
    # Qt 6 (qt6-httpserver-dev configures only with qt6-websockets-dev present)
    qt6-base-dev qt6-base-dev-tools qt6-httpserver-dev qt6-websockets-dev
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev qt6-charts-dev libqt6opengl6-dev
    libqt6sql6-sqlite libqt6sql6-psql libqt6svg6 qt6-qpa-plugins
    libgl-dev libxkbcommon-dev
    # crypto for the Aadhaar vault (authenticated encryption)
    libsodium-dev
    # libarchive: the backup archive (tar.gz); postgresql-client (pg_dump, pg_restore) backs up PostgreSQL
    libarchive-dev postgresql-client
    # libcurl: the calls to the upstream (backend/http/curlclient.h)
    libcurl4-openssl-dev
    # libqrencode: the UPI QR code on screen and on receipts (ui/widgets/qrcode.h; the package depends on libqrencode4)
    libqrencode-dev
    # OpenSSL 3 libcrypto: the self-signed certificate of `serve --tls`
    libssl-dev
    # database CLIs used by the benchmark baseline and the PostgreSQL option
    sqlite3 libsqlite3-dev
    # PostgreSQL server for the pg_* tests: pg_virtualenv (postgresql-common) runs each against a
    # throw-away cluster (tests/tools/with_postgres.sh)
    postgresql postgresql-common
    # the format check (CTest clang_format)
    clang-format
    # benchmarks
    wrk nginx-light time
    # several servers on one PostgreSQL behind a load balancer (issue 16): tests/tools/cluster.sh, the CTest
    # cluster_failover and tests/bench/cluster_bench.sh run haproxy with packaging/examples/haproxy.cfg
    haproxy
    # the API reference: the build turns docs/api/openapi.yaml into JSON (python3-yaml); the api_contract test
    # checks every API test answer against it (python3-jsonschema, JSON Schema 2020-12)
    python3 python3-yaml python3-jsonschema
    # instructions per request (tests/bench/callgrind_paths.sh)
    valgrind
    # screenshots and offscreen GUI runs
    xvfb xauth x11-apps xdotool imagemagick fonts-dejavu-core fonts-noto-core curl
    # tests only: zbarimg (a QR decoder) reads the UPI QR back to its payment link (CTest ui_upiqr)
    zbar-tools
    # the Debian package (issue 15): sd_notify, icons rendered from the SVG, and the checks CI runs on the
    # package (lintian), the desktop entries (desktop-file-validate), the AppStream metainfo (appstreamcli) and
    # the unit (systemd-analyze)
    libsystemd-dev librsvg2-bin lintian desktop-file-utils appstream systemd
)
# Node.js and npm run the webhook signature cross-check. A machine that already has them (for
# example from another repository) keeps its own: Debian's npm conflicts with such a nodejs.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "install-deps: all packages present"
fi

# npm tools of the tests, each pinned by its package-lock.json and installed into its node_modules (as the
# sudo-invoking user, so the tree stays theirs):
# - tests/webhooks: the npm `standardwebhooks` package, which verifies the product's webhook signatures (CTest
#   webhook_node_crosscheck);
# - tests/openapi: the Redocly CLI, which lints docs/api/openapi.yaml (CTest openapi_lint).
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool_dir in "$repo_dir/tests/webhooks" "$repo_dir/tests/openapi"; do
    if [ -f "$tool_dir/package-lock.json" ]; then
        run_as=()
        if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ]; then run_as=(sudo -u "$SUDO_USER"); fi
        echo "install-deps: npm ci in $tool_dir"
        (cd "$tool_dir" && "${run_as[@]}" npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
done
