"""The built wheel carries the content: an installed `floor` works outside a checkout."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="uv is needed to build and install the wheel")


@pytest.fixture(scope="module")
def installed_floor(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    subprocess.run(["uv", "build", "--wheel", "--out-dir", str(dist), str(REPO)], check=True, capture_output=True, timeout=300)
    wheel = next(dist.glob("floorcall-*.whl"))
    venv = work / "venv"
    subprocess.run(["uv", "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, capture_output=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(["uv", "pip", "install", "--quiet", "--python", str(python), str(wheel)], check=True, capture_output=True, timeout=300)
    return venv / "bin" / "floor"


def test_installed_floor_runs_outside_a_checkout(installed_floor, tmp_path):
    """`floor rule tda-2024:44` from an unrelated folder uses the data inside the wheel."""
    env = {k: v for k, v in os.environ.items() if k != "FLOORCALL_ROOT"}
    env["FLOORCALL_CACHE_DIR"] = str(tmp_path / "cache")
    result = subprocess.run([str(installed_floor), "rule", "tda-2024:44"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Oversized Chip Betting (Overchips)" in result.stdout
    looked = subprocess.run([str(installed_floor), "lookup", "overchip", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert looked.returncode == 0 and "overchip-facing-bet" in looked.stdout


def test_wheel_metadata_and_version(installed_floor, tmp_path):
    """The wheel ships the MIT LICENSE and py.typed, and `floor --version` is the wheel's version (one source)."""
    python = installed_floor.parent / "python"
    code = ("import importlib.metadata as m, pathlib, floorcall; d = m.distribution('floorcall');"
            "print(d.version); print(any(str(f).endswith('LICENSE') for f in d.files));"
            "print((pathlib.Path(floorcall.__file__).parent / 'py.typed').exists()); print(d.metadata['License-Expression'])")
    meta = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120).stdout.split()
    version = subprocess.run([str(installed_floor), "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=120).stdout.strip()
    from floorcall import __version__

    assert meta == [__version__, "True", "True", "MIT"]
    assert version == f"floor {__version__}"
