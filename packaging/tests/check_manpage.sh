#!/usr/bin/env bash
# The man page covers every command: each command and action that `rechargedesk --help` and
# `rechargedesk COMMAND --help` name has a section in rechargedesk.1, and each option their --help
# prints is in it. groff reports no warnings. Usage: check_manpage.sh BINARY MANPAGE
set -euo pipefail
binary=$1
manpage=$2
RECHARGEDESK_DATA_DIR=$(mktemp -d)
export QT_QPA_PLATFORM=offscreen RECHARGEDESK_DATA_DIR
trap 'rm -rf "$RECHARGEDESK_DATA_DIR"' EXIT

problems=()
text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$manpage") # the page with troff's escaped dashes and fonts undone

# The options `--help` prints for one command line (Qt's own --help/--help-all left out).
options_of() {
    [ $# -eq 0 ] && set -- --kiosk # the terminal's own options (plain --help prints the commands)
    { "$binary" "$@" --help 2>/dev/null || true; } | grep -oE '^ +(-[a-z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' |
        grep -vxE -- '--help|--help-all' || true
}

check_command() { # words of the command after "rechargedesk"
    local title="rechargedesk $*"
    if [ $# -eq 0 ]; then title="rechargedesk [terminal options]"; fi
    if ! grep -qE "^\.SS \"${title//[/\\[}( |\")" <<<"$(sed 's/\\f[BIRP]//g; s/\\-/-/g' "$manpage")"; then
        problems+=("no section .SS \"$title\"")
    fi
    local option
    for option in $(options_of "$@"); do
        grep -qF -- "$option" <<<"$text" || problems+=("$title: option $option is missing")
    done
}

# Commands and their actions, as the program itself names them.
usage=$("$binary" --help)
check_command
for command in $(grep -oE '^ +rechargedesk [a-z]+' <<<"$usage" | awk '{ print $2 }' | sort -u); do
    # "Usage: rechargedesk plans import|check FILE | sync [options]" -> import check sync
    actions=$({ "$binary" "$command" --help 2>&1 || true; } | sed -nE "s/^Usage: rechargedesk $command ([^[(]*).*/\1/p" |
        tr '| ' '\n\n' | { grep -xE '[a-z][a-z-]*' || true; })
    if [ -z "$actions" ]; then
        actions=$({ grep -oE "rechargedesk $command [a-z][a-z|-]*" <<<"$usage" || true; } | awk '{ print $3 }' | tr '|' ' ')
    fi
    if [ -z "$actions" ]; then
        check_command "$command"
    else
        for action in $actions; do check_command "$command" "$action"; done
    fi
done

warnings=$(groff -man -ww -z -Tutf8 "$manpage" 2>&1 || true)
[ -z "$warnings" ] || problems+=("groff: $warnings")

if [ ${#problems[@]} -gt 0 ]; then
    printf 'check_manpage: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "check_manpage: every command and option of $binary is in $manpage"
