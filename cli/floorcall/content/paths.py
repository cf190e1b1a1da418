"""Finding the content root: the folder that holds rulebook/, rulings/ and site/.

Order: an explicit option > FLOORCALL_ROOT > walking up from the working directory
> the checkout this package was imported from > the data installed with the wheel.
"""

from __future__ import annotations

import os
from pathlib import Path

from floorcall.core.errors import FloorError

ROOT_ENV = "FLOORCALL_ROOT"
# A folder is a content root when it has both of these (a stray rulings/ folder is not enough).
ROOT_MARKERS = ("rulebook/sources.yaml", "rulings")


def is_content_root(path: Path) -> bool:
    return all((path / marker).exists() for marker in ROOT_MARKERS)


def find_root(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        root = Path(explicit).expanduser()
        if not is_content_root(root):
            raise FloorError(f"{root} is not a Floorcall content folder (no rulebook/sources.yaml and rulings/)")
        return root.resolve()
    env = os.environ.get(ROOT_ENV)
    if env:
        root = Path(env).expanduser()
        if not is_content_root(root):
            raise FloorError(f"{ROOT_ENV}={env} is not a Floorcall content folder (no rulebook/sources.yaml and rulings/)")
        return root.resolve()
    here = Path.cwd()
    for folder in (here, *here.parents):
        if is_content_root(folder):
            return folder
    package_dir = Path(__file__).resolve().parent.parent  # floorcall/, above content/
    checkout = package_dir.parent.parent  # cli/floorcall -> the repository
    if is_content_root(checkout):
        return checkout
    installed = package_dir / "_data"
    if is_content_root(installed):
        return installed
    raise FloorError("cannot find the Floorcall rulebook: run inside a checkout or set FLOORCALL_ROOT")
