#!/usr/bin/env bash
# Installs the Debian 12 packages Squawk needs to build, test and run locally.
# Asks apt only when something is missing, so a second run is quick and silent.
set -euo pipefail

packages=(
    # build
    build-essential cmake pkg-config ccache clang clang-format libclang-rt-14-dev
    # libraries
    libpistache-dev libhiredis-dev libboost-fiber-dev libboost-context-dev nlohmann-json3-dev
    libmysqlcppconn-dev libcurl4-openssl-dev libssl-dev libfmt-dev libsystemd-dev
    libtomlplusplus-dev libcli11-dev catch2 libhowardhinnant-date-dev tzdata libjemalloc-dev
    libsodium-dev
    # generation and the media library: cards, JPEG, content sniffing, fonts for every script
    libcairo2-dev libpango1.0-dev libjpeg-dev libmagic-dev libzip-dev poppler-utils unzip
    fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core
    # servers and tools the stack and the tests run
    redis-server redis-tools mariadb-server mariadb-client espeak-ng nodejs npm curl python3
    # the cluster run: Galera nodes (state transfer by rsync), HAProxy; Sentinels are redis-server
    galera-4 rsync haproxy
    ffmpeg pocketsphinx pocketsphinx-en-us
    # the dashboard's browser tests (tests/browser)
    chromium
    # systemd-analyze, for verifying the unit files
    systemd
    # benchmarks: the load generator and the static-file peer
    wrk nginx-light
)

# One dpkg query for the whole list; packages dpkg has never heard of are simply absent from it.
declare -A state
while read -r name status; do
    state[$name]=$status
done < <(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null || true)

missing=()
for package in "${packages[@]}"; do
    [ "${state[$package]:-}" = ii ] && continue
    # NodeSource's nodejs package bundles npm and conflicts with Debian's npm package.
    [ "$package" = npm ] && command -v npm >/dev/null 2>&1 && continue
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "deps: missing packages (${missing[*]}) and not root; install them as root" >&2
        exit 1
    fi
    as_root=(sudo)
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
