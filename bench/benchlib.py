"""What the timing benches share: the installed `floor` entry point, with the package compiled.

A bench times the command a floorperson runs (`.venv/bin/floor`), not `uv run`, and only after the
package's own modules are byte-compiled: an editable install leaves them outside what
`uv sync --compile-bytecode` compiles, and PYTHONDONTWRITEBYTECODE may stop them being cached at run
time, so the first runs would time the compiler.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def installed_floor() -> tuple[Path, Path] | None:
    """(the venv's bin folder, its `floor`), the package compiled; None (said on stderr) if not installed."""
    venv_bin = Path(sys.prefix) / "bin"
    floor = venv_bin / "floor"
    if not floor.exists():
        print(f"no installed entry point at {floor}: run `uv sync --compile-bytecode` first", file=sys.stderr)
        return None
    import floorcall

    subprocess.run([str(venv_bin / "python"), "-m", "compileall", "-q", str(Path(floorcall.__file__).parent)], check=True)
    return venv_bin, floor
