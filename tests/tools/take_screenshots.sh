#!/usr/bin/env bash
# Opens the real terminal under Xvfb at 1366x768, drives it with xdotool like a clerk at the
# keyboard, and saves a PNG of every screen into docs/screenshots/. Needs xvfb, xdotool and
# ImageMagick (packaging/install-deps.sh installs them) and a built build/app/rechargedesk.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-$PWD/build/app/rechargedesk}
OUT=${OUT:-$PWD/docs/screenshots}
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A shop that is set up, with some history for the back office.
"$BIN" setup --shop-name "Sharma Mobile Point" --shop-address "Shop 4, MG Road, Pune 411001" \
    --admin-name Asha --admin-pin 482193 --data-dir "$work/shop" >/dev/null
"$BIN" dev seed --transactions 3000 --data-dir "$work/shop" >/dev/null 2>&1

cat >"$work/drive.sh" <<'DRIVE'
#!/usr/bin/env bash
set -u
BIN=$1; OUT=$2; work=$3
shot() { sleep "${2:-1.5}"; xwd -root -silent | convert xwd:- "png:$OUT/$1.png"; echo "saved $1.png"; }
key() { xdotool key --clearmodifiers "$@"; }
# No window manager runs under Xvfb: give the window the X input focus so Qt treats it as the
# active window (its F-key shortcuts only work in the active window).
focus() { local wid; wid=$(xdotool search --sync --name '^RechargeDesk$' | head -1); xdotool windowfocus --sync "$wid"; }
type_text() { xdotool type --delay 40 "$1"; }

# First run on an empty data directory.
"$BIN" --data-dir "$work/fresh" & first=$!
sleep 4; xdotool mousemove 683 300; focus
shot 01-first-run 0.5
kill $first; wait $first 2>/dev/null

"$BIN" --data-dir "$work/shop" & app=$!
sleep 4; xdotool mousemove 683 300; focus
shot 02-sign-in 0.5
type_text Asha; key Return; type_text 482193; key Return
shot 03-verify-customer 3
key F2; sleep 1; shot 04-plans 3
key F3; sleep 1; type_text 9876543210; key Tab; shot 05-mobile-recharge 2
key F4; shot 06-dth-recharge 2
key F5; shot 07-voucher 2
key F6; shot 08-back-office 4
# A sale selected in the history (Alt+E: search, Enter: into the table, Down: first row): the detail pane.
key ctrl+shift+Tab; shot 10-settings-sale-terms 3
key ctrl+Tab; sleep 1
key alt+e; key Return; sleep 0.5; key Down; shot 15-back-office-sale-selected 3
kill $app; wait $app 2>/dev/null

# Sandbox sales: ₹299 Jio on the confirm screen, its result (SUCCESS), then a number ending 0000
# (FAILED at once, refunded). F8 starts a new sale.
sell() { type_text "$1"; key Tab; type_text J; key Tab; type_text K; key Tab; key ctrl+a; type_text 299; key Return; }
"$BIN" --data-dir "$work/shop" & app=$!
sleep 4; xdotool mousemove 683 300; focus
type_text Asha; key Return; type_text 482193; key Return; sleep 3
key F3; sleep 1; sell 9876543210; shot 13-sale-confirm 2
key Return; shot 11-receipt-sandbox 4
key F8; sleep 1; key ctrl+a; sell 9876500000; sleep 2; key Return; shot 12-receipt-failed 4
kill $app; wait $app 2>/dev/null

# The kiosk: frameless and full screen at 1366x768, signed in, on the mobile sale page.
"$BIN" --kiosk --data-dir "$work/shop" & app=$!
sleep 4; xdotool mousemove 683 300; focus
type_text Asha; key Return; type_text 482193; key Return; sleep 3
key F3; shot 14-kiosk 2
kill $app; wait $app 2>/dev/null

# The same shop in Hindi (Settings → Language, kept as terminal/language in terminal.ini;
# RECHARGEDESK_LANG overrides it for one run).
RECHARGEDESK_LANG=hi "$BIN" --data-dir "$work/shop" & app=$!
sleep 4; xdotool mousemove 683 300; focus
type_text Asha; key Return; type_text 482193; key Return
shot 09-hindi-verify-customer 3
key F3; sleep 1; type_text 9812345670; key Tab; type_text J; key Tab; type_text K; key Tab; type_text 299
key Return; shot 09-hindi-sale-confirm 2
kill $app; wait $app 2>/dev/null

# A live sale through an upstream: a distributor (test mode, settle delay 8 s) and a shop whose
# upstream it is, both headless; the shop's terminal signs in with a live key and sells 9876541111
# (PENDING at the distributor, then SUCCESS): "Waiting for the operator", then the settled sale.
"$BIN" serve --listen 127.0.0.1:18090 --settle-delay-ms 8000 --data-dir "$work/dist" >"$work/dist.log" 2>&1 & dist=$!
"$BIN" serve --listen 127.0.0.1:18080 --data-dir "$work/shop" >"$work/shopserver.log" 2>&1 & shopserver=$!
sleep 3
curl -s -o /dev/null "http://127.0.0.1:18090/healthz"; curl -s -o /dev/null "http://127.0.0.1:18080/healthz"
"$BIN" --server http://127.0.0.1:18080 --key-id "$LIVE_ID" --key-secret-file "$work/live.key" --data-dir "$work/shopterm" & app=$!
sleep 4; xdotool mousemove 683 300; focus
type_text Asha; key Return; type_text 482193; key Return; sleep 3
key F3; sleep 1; type_text 9876541111; key Tab; type_text A; key Tab; type_text K; key Tab; key ctrl+a; type_text 249
key Return; sleep 2; key Return; shot 16-live-sale-waiting 3
shot 17-live-sale-settled 20
kill $app $shopserver $dist; wait $app $shopserver $dist 2>/dev/null
DRIVE
# The distributor and the shop's upstream for the live sale (docs/operations.md, "Selling live").
"$BIN" keys create --name "Sharma Mobile Point" --mode test --scope pos --data-dir "$work/dist" >"$work/dist.key"
awk '$1 == "key_secret:" { print $2 }' "$work/dist.key" >"$work/dist.secret"
"$BIN" webhook set --mode test --url http://127.0.0.1:18080/hooks/upstream --password hook-s3cret \
    --data-dir "$work/dist" >/dev/null
"$BIN" upstream set --url http://127.0.0.1:18090/api/v1 --key-id "$(awk '$1 == "key_id:" { print $2 }' "$work/dist.key")" \
    --key-secret-file "$work/dist.secret" --webhook-password hook-s3cret --data-dir "$work/shop" >/dev/null
"$BIN" keys create --name "counter 1" --mode live --scope admin --data-dir "$work/shop" >"$work/live.key"
"$BIN" wallet topup --mode live --amount 5000 --note "float paid to the distributor" --data-dir "$work/shop" >/dev/null
export LIVE_ID=$(awk '$1 == "key_id:" { print $2 }' "$work/live.key")
chmod 600 "$work/live.key" # the terminal reads its key_secret line (--key-secret-file)

chmod +x "$work/drive.sh"
xvfb-run -a -s "-screen 0 1366x768x24" "$work/drive.sh" "$BIN" "$OUT" "$work"
