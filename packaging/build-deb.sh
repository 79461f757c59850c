#!/usr/bin/env bash
# Builds rechargedesk_<version>_amd64.deb from a clean checkout and checks it with lintian.
# Usage: packaging/build-deb.sh [BUILD_DIR]   (default build-deb/; the .deb lands there)
# Installs the build dependencies first (packaging/install-deps.sh; sudo when not root). Set
# RECHARGEDESK_SKIP_DEPS=1 when they are installed already (.ci/run does).
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(realpath -m "${1:-$source_dir/build-deb}")

if [ "${RECHARGEDESK_SKIP_DEPS:-0}" != 1 ]; then
    bash "$source_dir/packaging/install-deps.sh"
fi

# Debian's hardening flags (fortify, stack protector, relro, bindnow), as a Debian build would use.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
cxxflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)"
ldflags=$(dpkg-buildflags --get LDFLAGS)
# A release build of the program only: the tests are not part of the package.
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$source_dir" -B "$build_dir" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
    -DRECHARGEDESK_BUILD_TESTS=OFF -DRECHARGEDESK_WERROR=ON
cmake --build "$build_dir" -j "${RECHARGEDESK_JOBS:-2}"
rm -f "$build_dir"/rechargedesk_*.deb
(cd "$build_dir" && cpack -G DEB)
deb=$(ls "$build_dir"/rechargedesk_*_amd64.deb)

# lintian: no error or warning; what is kept is overridden with a reason (debian/rechargedesk.lintian-overrides).
lintian --fail-on error,warning --display-info "$deb"
echo "build-deb: $deb"
