#!/usr/bin/env bash
# Install the Hanabi table companion on Raspberry Pi OS (Bookworm or Trixie; Pi 4, Pi 5, Zero 2 W).
# Run from a checkout as root:  sudo systemd/install.sh
# Safe to run again: it upgrades the program and keeps the settings and the stored games.
set -euo pipefail

PREFIX=/opt/hanabi-companion
VENV="$PREFIX/venv"
CONF_DIR=/etc/hanabi-companion
UNIT=hanabi-companion.service
SERVICE_USER=hanabi
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# from apt, on Raspberry Pi OS and plain Debian alike
PACKAGES=(python3-venv python3-pip python3-numpy i2c-tools espeak-ng)
# only in Raspberry Pi OS's own archive (the camera stack, the Pi 5's GPIO); without them the box
# still serves the page and takes the cards by hand
PI_ONLY_PACKAGES=(python3-picamera2 python3-lgpio)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run me as root: sudo $0" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install.sh: this script is for Raspberry Pi OS (apt-get not found)" >&2
    exit 1
fi

echo "== packages from Raspberry Pi OS (the camera stack needs its libcamera)"
apt-get update
wanted=("${PACKAGES[@]}")
for package in "${PI_ONLY_PACKAGES[@]}"; do
    candidate="$(LC_ALL=C apt-cache policy "$package" | sed -n 's/^ *Candidate: //p')"
    if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
        wanted+=("$package")
    else
        echo "install.sh: skipping $package: only Raspberry Pi OS's apt sources have it" >&2
    fi
done
apt-get install -y "${wanted[@]}"

echo "== I2C on (for the OLED)"
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0
else
    echo "raspi-config not found: enable I2C yourself (dtparam=i2c_arm=on in config.txt)" >&2
fi

echo "== service user"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/hanabi-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio i2c video audio; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" "$SERVICE_USER"
    fi
done

echo "== the program, in a venv that sees apt's picamera2"
mkdir -p "$PREFIX"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv --system-site-packages "$VENV"
fi
# picamera2 from apt was built against apt's numpy: keep exactly that numpy inside the venv.
system_numpy="$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
constraints="$PREFIX/constraints.txt"
printf 'numpy==%s\n' "$system_numpy" > "$constraints"
if [ "${system_numpy%%.*}" -lt 2 ]; then
    # the OpenCV wheels from 4.12 on need numpy 2: saves pip fetching each (~35 MB) to find that out
    printf 'opencv-python-headless<4.12\n' >> "$constraints"
fi
"$VENV/bin/pip" install --upgrade --constraint "$constraints" "$SRC"
cp "$SRC/README.md" "$PREFIX/README.md"
"$VENV/bin/python" -c 'import numpy, sys; print("numpy", numpy.__version__, "in", sys.prefix)'

echo "== settings"
mkdir -p "$CONF_DIR"
if [ ! -f "$CONF_DIR/config.toml" ]; then
    "$VENV/bin/companion" config --print > "$CONF_DIR/config.toml"
    echo "wrote $CONF_DIR/config.toml (edit it, then: systemctl restart $UNIT)"
fi
# the settings may hold the pairing PIN: readable by root and the service only
chown "root:$SERVICE_USER" "$CONF_DIR/config.toml"
chmod 0640 "$CONF_DIR/config.toml"

echo "== the service"
install -m 0644 "$SRC/systemd/$UNIT" "/etc/systemd/system/$UNIT"
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable "$UNIT"
    systemctl restart "$UNIT"
    echo "done: the companion starts on power-on. Status: systemctl status $UNIT; log: journalctl -u $UNIT"
else
    # a system being prepared in a chroot or a container: the unit is enabled for its first boot
    systemctl enable "$UNIT"
    echo "done: systemd is not running here, so the companion starts when this system boots"
fi
if [ ! -e /dev/i2c-1 ]; then
    echo "note: /dev/i2c-1 appears after a reboot; the box shows the page until then"
fi
