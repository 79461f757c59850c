#!/usr/bin/env bash
# The package as a shop gets it (issue 15, "Tests"): install rechargedesk_….deb with apt, check what it
# installed, start the INSTALLED server the way the package's unit does (its user, environment and
# /etc/rechargedesk/server.conf; no systemd needed), sell one sandbox sale over HTTP, stop it with SIGTERM,
# then `apt-get remove` (the data stays) and `apt-get purge` (the data goes), as Debian policy says.
# Run as root on a machine without the package: packaging/tests/install_test.sh build-deb/rechargedesk_*.deb
# Then a backup under load and one at rest, each restored into a fresh directory and compared.
# Each step is a function; main() lists them in order.
set -euo pipefail

deb=$(realpath "$1")
readonly data_dir=/var/lib/rechargedesk
readonly config=/etc/rechargedesk/server.conf
readonly unit=/lib/systemd/system/rechargedesk-server.service
scratch=$(mktemp -d)
chmod 755 "$scratch" # the server's user writes its log here
server_pid=
server_url=
key=

log() { echo "install_test: $*"; }
fail() {
    echo "install_test: FAIL: $*" >&2
    exit 1
}

cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    if dpkg-query -W -f='${Status}' rechargedesk 2>/dev/null | grep -q "installed\|config-files"; then
        apt-get purge -y -qq rechargedesk >/dev/null 2>&1 || true
    fi
    rm -rf "$scratch"
}

refuse_an_installed_package() {
    [ "$(id -u)" -eq 0 ] || fail "run as root (it installs and purges the package)"
    if dpkg-query -W -f='${Status}' rechargedesk 2>/dev/null | grep -q "installed\|config-files"; then
        fail "rechargedesk is installed already; this test would purge it and the shop's data"
    fi
    [ ! -e "$data_dir" ] || fail "$data_dir exists already; this test would delete it"
}

install_package() {
    log "apt-get install $deb"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$scratch/apt.log" 2>&1 ||
        fail "apt-get install failed: $(tail -20 "$scratch/apt.log")"
    getent passwd rechargedesk >/dev/null || fail "no system user rechargedesk"
    [ "$(stat -c '%U %a' "$data_dir")" = "rechargedesk 700" ] ||
        fail "$data_dir is $(stat -c '%U %a' "$data_dir"), not rechargedesk 700"
    grep -qx "$config" /var/lib/dpkg/info/rechargedesk.conffiles || fail "$config is not a conffile"
}

check_installed_files() {
    desktop-file-validate /usr/share/applications/in.rechargedesk.RechargeDesk.desktop ||
        fail "the installed desktop entry does not validate"
    appstreamcli validate --no-net /usr/share/metainfo/in.rechargedesk.RechargeDesk.metainfo.xml >/dev/null ||
        fail "the installed metainfo does not validate"
    systemd-analyze verify --man=no "$unit" || fail "systemd-analyze verify $unit failed"
    [ -s /usr/share/man/man1/rechargedesk.1.gz ] && [ -s /usr/share/man/man8/rechargedesk-kiosk-setup.8.gz ] ||
        fail "man pages missing"
    for size in 16x16 32x32 48x48 256x256 scalable; do
        ls /usr/share/icons/hicolor/$size/apps/in.rechargedesk.RechargeDesk.* >/dev/null || fail "no $size icon"
    done
    /usr/bin/rechargedesk --help | grep -q "rechargedesk serve" || fail "the installed binary does not run"
}

# `serve` as the unit runs it: its user, its Environment= lines, its --config; --listen on a free port
# overrides the config's address (flags win), so the test never collides with a server on 8080. Before
# `serve --config` exists (issue 15's config reading), the config's keys are passed as the flags they name.
start_installed_server() {
    local -a environment arguments
    mapfile -t environment < <(sed -n 's/^Environment=//p' "$unit")
    if /usr/bin/rechargedesk serve --help 2>/dev/null | grep -q -- '--config'; then
        arguments=(--config "$config")
    else
        arguments=()
        while IFS='=' read -r name value; do
            arguments+=("--$(echo "$name" | xargs)" "$(echo "$value" | xargs)")
        done < <(grep -vE '^\s*(#|$)' "$config")
    fi
    # setpriv execs (runuser would stay in between and turn the SIGTERM of stop_server into a kill).
    log "starting as rechargedesk: rechargedesk serve ${arguments[*]} --listen 127.0.0.1:0"
    : >"$scratch/serve.log" # before the background job opens it: the wait below reads it at once
    setpriv --reuid=rechargedesk --regid=rechargedesk --init-groups \
        env "${environment[@]}" /usr/bin/rechargedesk serve "${arguments[@]}" \
        --listen 127.0.0.1:0 >"$scratch/serve.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 150); do
        server_url=$(sed -nE 's|.*listening on (http://[0-9.:]+)/api/v1.*|\1|p' "$scratch/serve.log")
        [ -n "$server_url" ] && break
        kill -0 "$server_pid" 2>/dev/null || fail "serve exited: $(cat "$scratch/serve.log")"
        sleep 0.2
    done
    [ -n "$server_url" ] || fail "serve did not start: $(cat "$scratch/serve.log")"
    grep -q "Database: $data_dir/rechargedesk.db" "$scratch/serve.log" ||
        fail "serve does not use $data_dir: $(cat "$scratch/serve.log")"
    log "server at $server_url"
}

create_pos_key() {
    local output
    output=$(runuser -u rechargedesk -- /usr/bin/rechargedesk keys create --name "install test" --mode test \
        --scope pos --data-dir "$data_dir")
    key="$(awk '$1 == "key_id:" { print $2 }' <<<"$output"):$(awk '$1 == "key_secret:" { print $2 }' <<<"$output")"
    [[ "$key" == test_*:?* ]] || fail "keys create printed no key: $output"
}

sell_one_sandbox_sale() {
    local answer id
    answer=$(curl -sS --fail-with-body -u "$key" -H 'Content-Type: application/json' \
        -d '{"phone_number":"9876543210","amount":"299","operator_code":"RJ","reference_id":"install-test-1"}' \
        "$server_url/api/v1/recharge/mobile/initiate-transaction") || fail "the sale was refused: $answer"
    grep -q '"transaction_status":"SUCCESS"' <<<"$answer" || fail "the sale did not succeed: $answer"
    id=$(grep -oE '"transaction_id":[0-9]+' <<<"$answer" | cut -d: -f2)
    curl -sS --fail -u "$key" "$server_url/api/v1/transactions/$id" | grep -q '"transaction_status":"SUCCESS"' ||
        fail "transaction $id is not SUCCESS on a status check"
    log "sold sandbox sale $id"
}

# The plan catalogue is built into the binary (a Qt resource), so the installed server has it without files.
built_in_catalogue_answers() {
    local answer
    answer=$(curl -sS --fail-with-body -u "$key" -H 'Content-Type: application/json' \
        -d '{"operator_code":"RJ","circle_code":"MU"}' "$server_url/api/v1/plans/mobile/prepaid-plans") ||
        fail "no plans from the installed server: $answer"
    grep -q '"categories":\[{' <<<"$answer" || fail "the installed server's catalogue is empty: ${answer:0:300}"
    log "plan catalogue answers (Jio, Mumbai)"
}

as_shop() { runuser -u rechargedesk -- "$@"; }

# SQL that counts wallets whose balance is not the sum of their ledger (0 when wallet = ledger).
readonly wallet_not_ledger="SELECT COUNT(*) FROM wallets w WHERE balance <> (SELECT COALESCE(SUM(amount), 0)
    FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)"

# `rechargedesk backup` while a writer sells: the archive is the owner's alone, restores into a fresh
# directory, and its database keeps wallet = ledger.
backup_under_load_restores() {
    local work="$scratch/backup" writer i
    install -d -o rechargedesk -g rechargedesk -m 700 "$work"
    (for i in $(seq 200); do
        curl -sf -u "$key" -H 'Content-Type: application/json' \
            -d "{\"phone_number\":\"98765$((10000 + i))\",\"amount\":\"10\",\"operator_code\":\"RJ\",\"reference_id\":\"install-load-$i\"}" \
            "$server_url/api/v1/recharge/mobile/initiate-transaction" >/dev/null || exit 1
    done) &
    writer=$!
    as_shop /usr/bin/rechargedesk backup --config "$config" --to "$work/live.tar.gz" >"$scratch/backup.log" 2>&1 ||
        fail "backup under load failed: $(cat "$scratch/backup.log")"
    wait "$writer" || fail "the writer's sales failed during the backup"
    [ "$(stat -c '%U %a' "$work/live.tar.gz")" = "rechargedesk 600" ] ||
        fail "the archive is $(stat -c '%U %a' "$work/live.tar.gz"), not rechargedesk 600"
    as_shop /usr/bin/rechargedesk restore --from "$work/live.tar.gz" --data-dir "$work/restored-live" \
        >"$scratch/restore.log" 2>&1 || fail "restore of the backup under load failed: $(cat "$scratch/restore.log")"
    [ "$(sqlite3 "$work/restored-live/rechargedesk.db" "$wallet_not_ledger")" = 0 ] ||
        fail "the backup taken under load has a wallet that is not its ledger"
    log "backup under load restored; wallet = ledger"
}

# With the server stopped, a backup restored into a fresh directory equals the shop's database row for row.
backup_at_rest_equals_every_row() {
    local work="$scratch/backup" table tables
    as_shop /usr/bin/rechargedesk backup --config "$config" --to "$work/rest.tar.gz" >"$scratch/backup.log" 2>&1 ||
        fail "backup failed: $(cat "$scratch/backup.log")"
    as_shop /usr/bin/rechargedesk restore --from "$work/rest.tar.gz" --data-dir "$work/restored" \
        >"$scratch/restore.log" 2>&1 || fail "restore failed: $(cat "$scratch/restore.log")"
    tables=$(sqlite3 "$data_dir/rechargedesk.db" \
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    for table in $tables; do
        diff <(sqlite3 "$data_dir/rechargedesk.db" "SELECT * FROM $table ORDER BY 1") \
            <(sqlite3 "$work/restored/rechargedesk.db" "SELECT * FROM $table ORDER BY 1") >/dev/null ||
            fail "table $table differs after backup and restore"
    done
    [ "$(sqlite3 "$work/restored/rechargedesk.db" "$wallet_not_ledger")" = 0 ] || fail "restored wallet != ledger"
    log "backup at rest restored: every row of $(wc -w <<<"$tables") tables equal, wallet = ledger"
}

stop_server() {
    kill -TERM "$server_pid"
    local status=0
    wait "$server_pid" || status=$?
    server_pid=
    [ "$status" -eq 0 ] || fail "serve exited with $status on SIGTERM: $(tail -5 "$scratch/serve.log")"
}

# The package's upgrade path (prerm/postrm "upgrade", postinst "configure OLD"), run by installing the same
# package again over itself: the shop's database, the vault key and an admin's edit of the conffile stay.
upgrade_keeps_data_and_config() {
    local before
    before=$(sqlite3 "$data_dir/rechargedesk.db" "SELECT COUNT(*) FROM transactions")
    echo "# edited by the shop's admin" >>"$config"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall -o Dpkg::Options::=--force-confold "$deb" \
        >"$scratch/apt.log" 2>&1 || fail "apt-get install --reinstall failed: $(tail -20 "$scratch/apt.log")"
    [ "$(sqlite3 "$data_dir/rechargedesk.db" "SELECT COUNT(*) FROM transactions")" = "$before" ] ||
        fail "the upgrade changed the shop's sales"
    grep -qx "# edited by the shop's admin" "$config" || fail "the upgrade overwrote the admin's $config"
    [ "$(stat -c '%U %a' "$data_dir")" = "rechargedesk 700" ] || fail "the upgrade changed $data_dir's owner or mode"
    log "upgrade over itself: $before sales and the edited $config kept"
}

remove_keeps_data() {
    apt-get remove -y -qq rechargedesk >"$scratch/apt.log" 2>&1 || fail "apt-get remove failed: $(cat "$scratch/apt.log")"
    [ ! -e /usr/bin/rechargedesk ] || fail "remove left /usr/bin/rechargedesk"
    [ -s "$data_dir/rechargedesk.db" ] || fail "remove deleted the shop's database"
    [ -f "$config" ] || fail "remove deleted the conffile $config"
    log "removed: $data_dir and $config kept"
}

purge_deletes_data() {
    apt-get purge -y -qq rechargedesk >"$scratch/apt.log" 2>&1 || fail "apt-get purge failed: $(cat "$scratch/apt.log")"
    [ ! -e "$data_dir" ] || fail "purge left $data_dir"
    [ ! -e /etc/rechargedesk ] || fail "purge left /etc/rechargedesk"
    log "purged: $data_dir and /etc/rechargedesk deleted"
}

main() {
    trap cleanup EXIT
    refuse_an_installed_package
    install_package
    check_installed_files
    start_installed_server
    create_pos_key
    sell_one_sandbox_sale
    built_in_catalogue_answers
    backup_under_load_restores
    stop_server
    backup_at_rest_equals_every_row
    upgrade_keeps_data_and_config
    remove_keeps_data
    purge_deletes_data
    log "PASS"
}

main "$@"
