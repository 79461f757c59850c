#!/usr/bin/env bash
# The kiosk session (packaging/kiosk/): rechargedesk-kiosk-setup writes the automatic login for
# LightDM and GDM into a scratch root and undoes it; the session file validates; the session
# starts the terminal again after it exits. Usage: kiosk_test.sh SOURCE_DIR
set -euo pipefail
kiosk=$1/packaging/kiosk
scratch=$(mktemp -d)
trap 'kill "${session_pid:-0}" 2>/dev/null || true; rm -rf "$scratch"' EXIT
user=$(id -un)
fail() { echo "kiosk_test: $*" >&2; exit 1; }

lightdm_writes_autologin() {
    local root=$scratch/lightdm conf
    mkdir -p "$root/etc/X11" && echo /usr/sbin/lightdm >"$root/etc/X11/default-display-manager"
    RECHARGEDESK_KIOSK_ROOT=$root "$kiosk/rechargedesk-kiosk-setup" "$user" >/dev/null
    conf=$root/etc/lightdm/lightdm.conf.d/50-rechargedesk-kiosk.conf
    grep -qx "autologin-user=$user" "$conf" || fail "no autologin-user in $conf"
    grep -qx "autologin-session=rechargedesk-kiosk" "$conf" || fail "no autologin-session in $conf"
    RECHARGEDESK_KIOSK_ROOT=$root "$kiosk/rechargedesk-kiosk-setup" --remove >/dev/null
    [ ! -e "$conf" ] || fail "--remove left $conf"
}

gdm_writes_autologin() {
    local root=$scratch/gdm conf
    conf=$root/etc/gdm3/daemon.conf
    mkdir -p "$(dirname "$conf")"
    printf '# GDM configuration storage\n\n[daemon]\n#  AutomaticLoginEnable = true\n#  AutomaticLogin = user1\n\n[security]\n\n[debug]\n' >"$conf"
    RECHARGEDESK_KIOSK_ROOT=$root "$kiosk/rechargedesk-kiosk-setup" --display-manager gdm3 "$user" >/dev/null
    [ "$(awk '/^\[/{s=$0} s=="[daemon]" && /^AutomaticLogin=/' "$conf")" = "AutomaticLogin=$user" ] ||
        fail "AutomaticLogin not set in [daemon]: $(cat "$conf")"
    grep -qx "AutomaticLoginEnable=true" "$conf" || fail "AutomaticLoginEnable not set"
    [ "$(grep -c '^AutomaticLogin=' "$conf")" = 1 ] || fail "AutomaticLogin set twice"
    grep -qx "XSession=rechargedesk-kiosk" "$root/var/lib/AccountsService/users/$user" || fail "no AccountsService session"
    grep -q '^\[security\]' "$conf" || fail "[security] lost"
    RECHARGEDESK_KIOSK_ROOT=$root "$kiosk/rechargedesk-kiosk-setup" --display-manager gdm3 --remove >/dev/null
    grep -qx "AutomaticLoginEnable=false" "$conf" || fail "--remove left automatic login on"
}

unknown_user_is_refused() {
    if RECHARGEDESK_KIOSK_ROOT=$scratch "$kiosk/rechargedesk-kiosk-setup" --display-manager lightdm no-such-user-rd 2>/dev/null; then
        fail "an unknown user was accepted"
    fi
}

session_file_validates() {
    desktop-file-validate "$kiosk/rechargedesk-kiosk.desktop" || fail "session file does not validate"
}

session_restarts_the_terminal() {
    local runs=$scratch/runs terminal=$scratch/terminal
    printf '#!/bin/sh\necho "$*" >>%s\nexit 3\n' "$runs" >"$terminal" && chmod +x "$terminal"
    RECHARGEDESK_KIOSK_COMMAND=$terminal RECHARGEDESK_KIOSK_RESTART_DELAY=0.2 \
        "$kiosk/kiosk-session" 2>/dev/null &
    session_pid=$!
    for _ in $(seq 50); do
        [ -f "$runs" ] && [ "$(wc -l <"$runs")" -ge 3 ] && break
        sleep 0.1
    done
    kill "$session_pid"
    [ -f "$runs" ] && [ "$(wc -l <"$runs")" -ge 3 ] || fail "the session did not start the terminal again after it exited"
}

lightdm_writes_autologin
gdm_writes_autologin
unknown_user_is_refused
session_file_validates
session_restarts_the_terminal
echo "kiosk_test: setup for LightDM and GDM, removal, session file and restart loop all work"
