"""The built wheel holds every data file the program reads: the card classifier and its record, the
OLED's fonts, the page's templates, static files and translations. A Pi installs from it, not from
the checkout, so a file missing here is missing on every box."""
import email
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from vision.classifier import MODEL_NAMES

pytestmark = pytest.mark.slow  # builds and installs the wheel

NOT_SOURCE = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "artifacts")


def build_wheel(dest: Path) -> Path:
    """``pip wheel`` of the checkout, as ``pip install .`` builds it (isolated, no dependencies).
    It builds from a copy of the sources: a build writes into its source folder, and two at once in
    the checkout (parallel tests) would trip over each other or ship what an old build left there."""
    source = dest / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(dest),
                        str(source)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    (wheel,) = dest.glob("hanabi_companion-*.whl")
    return wheel


def checkout_files(folder: str, pattern: str) -> set[str]:
    root = Path(ROOT)
    found = {path.relative_to(root).as_posix() for path in (root / folder).glob(pattern)}
    assert found, f"nothing matches {folder}/{pattern} in the checkout"
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def names(wheel):
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_the_wheel_holds_the_card_classifier_and_its_record(wheel, names):
    assert "models/__init__.py" in names
    for network in MODEL_NAMES:
        record = network.replace(".onnx", ".json")
        assert {f"models/{network}", f"models/{record}"} <= names
        with zipfile.ZipFile(wheel) as z:
            shipped = z.read(f"models/{network}")
        assert shipped == (Path(ROOT) / "models" / network).read_bytes()


@pytest.mark.parametrize("folder, pattern", [
    ("hardware/fonts", "*.ttf"),
    ("hardware/fonts", "LICENSE.txt"),
    ("web/templates", "*.html"),
    ("web/static", "*"),
    ("companion/words/locale", "*/LC_MESSAGES/messages.po"),
    ("companion/words/locale", "*/LC_MESSAGES/messages.mo"),
])
def test_the_wheel_holds_every_data_file_of_the_checkout(names, folder, pattern):
    missing = checkout_files(folder, pattern) - names
    assert not missing, f"not in the wheel: {sorted(missing)}"


def test_the_wheel_holds_the_program_and_nothing_of_the_workshop(names):
    tops = {name.split("/")[0] for name in names if not name.startswith("hanabi_companion-")}
    assert tops == {"companion", "vision", "hardware", "web", "models"}
    assert "companion/app/cli.py" in names and "vision/classifier.py" in names


def test_the_wheel_declares_its_licence_and_command(wheel, names):
    with zipfile.ZipFile(wheel) as z:
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(z.read(f"{dist_info}/METADATA"))
        entry_points = z.read(f"{dist_info}/entry_points.txt").decode()
    assert meta["License-Expression"] == "MIT"
    assert "companion = companion.app.cli:main" in entry_points
