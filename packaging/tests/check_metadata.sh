#!/usr/bin/env bash
# The packaging metadata, checked without building the package: the desktop entry and the kiosk
# session validate, the AppStream metainfo validates and its newest release is this version, the
# systemd unit verifies with this build's binary in ExecStart and its `systemd-analyze security`
# exposure stays at most what docs/operations.md records.
# Usage: check_metadata.sh SOURCE_DIR METAINFO PROJECT_VERSION BINARY
set -euo pipefail
source_dir=$1
metainfo=$2
version=$3
binary=$4
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "check_metadata: $*" >&2; exit 1; }

desktop_entries_validate() {
    desktop-file-validate "$source_dir"/packaging/linux/*.desktop "$source_dir/packaging/kiosk/rechargedesk-kiosk.desktop" ||
        fail "desktop-file-validate found problems"
}

metainfo_validates() {
    # --no-net: the screenshots are checked for form, not fetched (CI has no need for the network).
    appstreamcli validate --no-net --pedantic --explain "$metainfo" || fail "appstreamcli validate found problems"
    local newest
    newest=$(grep -m1 -oE '<release version="[^"]+"' "$metainfo" | cut -d'"' -f2)
    [ "$newest" = "$version" ] ||
        fail "the newest <release> in the metainfo is $newest, the project is $version: add a release entry"
}

unit_verifies() {
    # verify needs ExecStart's binary to exist: point it at this build's.
    sed "s|^ExecStart=/usr/bin/rechargedesk |ExecStart=$binary |" \
        "$source_dir/packaging/systemd/rechargedesk-server.service" >"$scratch/rechargedesk-server.service"
    systemd-analyze verify --man=no "$scratch/rechargedesk-server.service" || fail "systemd-analyze verify failed"
}

unit_exposure_is_as_documented() {
    # docs/operations.md records systemd-analyze's line "Overall exposure level for rechargedesk-server.service: 1.1 OK";
    # higher fails (--threshold is the level times 10).
    local documented
    documented=$(grep -oE 'exposure level for rechargedesk-server.service: [0-9]+\.[0-9]' "$source_dir/docs/operations.md" |
        head -1 | awk '{ print $NF }')
    [ -n "$documented" ] || fail "docs/operations.md records no \"exposure level for rechargedesk-server.service: N.N\""
    systemd-analyze security --offline=true --threshold="${documented/./}" "$scratch/rechargedesk-server.service" \
        >"$scratch/security.txt" 2>&1 || fail "exposure above the documented $documented: $(tail -1 "$scratch/security.txt")"
    tail -1 "$scratch/security.txt"
}

desktop_entries_validate
metainfo_validates
unit_verifies
unit_exposure_is_as_documented
echo "check_metadata: desktop entries, metainfo (release $version) and the systemd unit are valid"
