#!/usr/bin/env bash
# CTest clang_format (issue 14): every C++ file the repository tracks is as Debian's clang-format formats it with
# the repository's .clang-format. Lists each file that is not; `clang-format -i FILE` fixes one.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "clang_format: clang-format is missing; run packaging/install-deps.sh"
    if [ -n "${CI:-}" ]; then exit 1; fi
    exit 77
fi
unformatted=()
while IFS= read -r -d '' file; do
    clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done < <(git ls-files -z '*.cpp' '*.h')
if [ ${#unformatted[@]} -gt 0 ]; then
    printf 'clang_format: not formatted (clang-format -i FILE): %s\n' "${unformatted[@]}" >&2
    exit 1
fi
echo "clang_format: $(git ls-files '*.cpp' '*.h' | wc -l) files formatted"
