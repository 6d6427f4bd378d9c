#!/usr/bin/env bash
# make pi-check: the install on a Pi-like system, without a Pi. Builds an emulated arm64 Debian
# Bookworm root (the base of Raspberry Pi OS) with mmdebstrap and qemu-user-static, runs
# systemd/install.sh in it on a copy of this checkout (apt's numpy pinned; the packages that only
# Raspberry Pi OS has are skipped by the script itself), then tests/system/smoke.py with the
# installed program. Takes minutes, so it is not part of `make test`.
#
# Run as root (it mounts and chroots): sudo systemd/pi-check.sh [--rebuild]
# The root is cached in $PI_CHECK_CACHE (default ~/.cache/hanabi-pi-check), with apt's and pip's
# downloads; --rebuild (or PI_CHECK_REBUILD=1) makes it again. pip in the root uses this machine's
# index, proxy and certificate settings.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SUITE=bookworm
MIRROR=http://deb.debian.org/debian
SECURITY=http://deb.debian.org/debian-security
# what Raspberry Pi OS Lite has before the install script runs, and (only so that a second run is
# fast: install.sh still asks apt for them) the script's own packages from Debian
BASE_PACKAGES="systemd ca-certificates python3 $(sed -n 's/^PACKAGES=(\(.*\))$/\1/p' "$SRC/systemd/install.sh")"
CACHE="${PI_CHECK_CACHE:-$HOME/.cache/hanabi-pi-check}"
TARBALL="$CACHE/$SUITE-arm64-$(printf '%s' "$BASE_PACKAGES" | md5sum | cut -c1-8).tar"
CHECKOUT=/root/hanabi-companion
COMPANION=/opt/hanabi-companion/venv/bin/companion
FRAME=tests/vision/frames/glare-edge-merged-frame-play-y4.jpg
REBUILD="${PI_CHECK_REBUILD:-}"
STARTED=$SECONDS

say() { echo "pi-check: $*"; }
die() { echo "pi-check: $*" >&2; exit 1; }

for arg in "$@"; do
    case "$arg" in
        --rebuild) REBUILD=1 ;;
        *) die "unknown option $arg (usage: $0 [--rebuild])" ;;
    esac
done

# Mounts live in a private mount namespace: they vanish with this script, whatever happens.
if [ -z "${PI_CHECK_NAMESPACE:-}" ]; then
    [ "$(id -u)" -eq 0 ] || die "run me as root (it mounts and chroots): sudo make pi-check"
    PI_CHECK_NAMESPACE=1 exec unshare --mount --propagation private "$0" "$@"
fi

need_tools() {
    local missing=()
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [ ${#missing[@]} -gt 0 ]; then
        command -v apt-get >/dev/null || die "needs ${missing[*]} (Debian packages): install them"
        say "installing ${missing[*]} with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# arm64 programs run through qemu: the kernel must hand them to it (binfmt_misc).
enable_arm64() {
    local binfmt=/proc/sys/fs/binfmt_misc
    [ -e "$binfmt/status" ] || mount -t binfmt_misc binfmt_misc "$binfmt" \
        || die "cannot mount $binfmt: this machine cannot run arm64 programs through qemu"
    [ -e "$binfmt/qemu-aarch64" ] || update-binfmts --enable qemu-aarch64 \
        || die "cannot register qemu-aarch64 with binfmt_misc (update-binfmts --enable qemu-aarch64)"
}

build_root() {
    mkdir -p "$CACHE"
    say "building an arm64 Debian $SUITE root with mmdebstrap (emulated: several minutes)"
    local started=$SECONDS
    mmdebstrap --arch=arm64 --variant=apt --format=tar --include="${BASE_PACKAGES// /,}" "$SUITE" "$TARBALL.part" \
        "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" "deb $SECURITY $SUITE-security main"
    rm -f "$CACHE/$SUITE"-arm64-*.tar
    mv "$TARBALL.part" "$TARBALL"
    say "root built in $((SECONDS - started)) s: $TARBALL"
}

# This machine's CA bundle and pip index settings, for pip in the root. Locations that exist only
# on this machine (file: URLs, folders) mean nothing there and are left out.
pip_settings() {
    local root="$1" key value item kept cert=""
    for item in "${PIP_CERT:-}" "$(pip_config cert)" "${SSL_CERT_FILE:-}" /etc/ssl/certs/ca-certificates.crt; do
        if [ -n "$item" ] && [ -f "$item" ]; then cert="$item"; break; fi
    done
    {
        echo "[global]"
        if [ -n "$cert" ]; then
            install -D -m 0644 "$cert" "$root/usr/local/share/pi-check/ca-bundle.pem"
            echo "cert = /usr/local/share/pi-check/ca-bundle.pem"
        fi
        for key in index-url extra-index-url trusted-host proxy default-timeout retries; do
            value="$(pip_env "$key")"
            [ -n "$value" ] || value="$(pip_config "$key")"
            kept=()
            read -r -d '' -a items < <(printf '%s\0' "$value") || true
            for item in "${items[@]}"; do
                case "$item" in
                    file:* | /*) say "pip's $key $item is on this machine only: not used in the root" >&2 ;;
                    *) kept+=("$item") ;;
                esac
            done
            if [ ${#kept[@]} -gt 0 ]; then echo "$key = ${kept[*]}"; fi
        done
    } > "$root/etc/pip.conf"
}

pip_env() {
    local name="PIP_${1^^}"
    name="${name//-/_}"
    printf '%s' "${!name:-}"
}

pip_config() {
    python3 -m pip config get "global.$1" 2>/dev/null || true
}

# The checkout as a clone would have it, plus files not yet committed (never what .gitignore hides).
copy_checkout() {
    local target="$1"
    # run as root through sudo: the checkout belongs to someone else, which git accepts only when told
    local git=(git -c safe.directory="$SRC" -C "$SRC")
    if ! "${git[@]}" rev-parse --git-dir >/dev/null 2>&1; then
        die "needs git and a git checkout of the companion (to copy exactly its files into the root)"
    fi
    mkdir -p "$target"
    "${git[@]}" ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' file; do
            if [ -e "$SRC/$file" ]; then printf '%s\0' "$file"; fi
        done \
        | tar -C "$SRC" --null -T - -cf - | tar -C "$target" -xf -
}

in_root() {
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        http_proxy="${http_proxy:-}" https_proxy="${https_proxy:-}" no_proxy="${no_proxy:-}" \
        HTTP_PROXY="${HTTP_PROXY:-}" HTTPS_PROXY="${HTTPS_PROXY:-}" NO_PROXY="${NO_PROXY:-}" "$@"
}

need_tools
enable_arm64
if [ -n "$REBUILD" ] || [ ! -f "$TARBALL" ]; then
    build_root
else
    say "using the cached root $TARBALL (--rebuild makes it again)"
fi

started=$SECONDS
WORK="$(mktemp -d /var/tmp/hanabi-pi-check.XXXXXX)"
ROOT="$WORK/root"
cleanup() {
    umount -R "$ROOT/var/cache/apt/archives" "$ROOT/root/.cache/pip" "$ROOT/dev" "$ROOT/sys" "$ROOT/proc" \
        2>/dev/null || true
    rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$TARBALL"
rm -f "$ROOT/etc/resolv.conf"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
pip_settings "$ROOT"
copy_checkout "$ROOT$CHECKOUT"
mkdir -p "$CACHE/apt-archives/partial" "$CACHE/pip" "$ROOT/root/.cache/pip"
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
mount --bind "$CACHE/apt-archives" "$ROOT/var/cache/apt/archives"
mount --bind "$CACHE/pip" "$ROOT/root/.cache/pip"
# keep apt's downloads for the next run, and skip the package descriptions' translations
printf '%s\n' 'Binary::apt::APT::Keep-Downloaded-Packages "true";' 'Acquire::Languages "none";' \
    > "$ROOT/etc/apt/apt.conf.d/90pi-check"
say "root unpacked in $((SECONDS - started)) s: $(in_root uname -m), Debian $(cat "$ROOT/etc/debian_version")"

say "== systemd/install.sh in the root"
started=$SECONDS
in_root bash -c "cd $CHECKOUT && systemd/install.sh"
say "install.sh took $((SECONDS - started)) s"
settings=$(in_root stat -c '%a %U:%G' /etc/hanabi-companion/config.toml)
[ "$settings" = "640 root:hanabi" ] || { say "the settings file is $settings, not 640 root:hanabi (it may hold the PIN)"; exit 1; }
say "settings file: $settings"
in_root /opt/hanabi-companion/venv/bin/python -c \
    'import cv2, numpy, platform; print("pi-check: installed on", platform.machine(), "with numpy", numpy.__version__, "and OpenCV", cv2.__version__)'

say "== smoke check of the installed program"
started=$SECONDS
in_root python3 "$CHECKOUT/tests/system/smoke.py" --companion "$COMPANION" --frame "$CHECKOUT/$FRAME" \
    --work /tmp/smoke --timeout 900
say "smoke took $((SECONDS - started)) s; pi-check passed in $((SECONDS - STARTED)) s"
