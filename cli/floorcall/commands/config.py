"""The user's settings: the house in force, the floorperson's name, the database paths.

Precedence, highest first: the command's option > environment (FLOORCALL_HOUSE, FLOORCALL_NAME,
FLOORCALL_DB, FLOORCALL_QUIZ_DB) > the config file ($XDG_CONFIG_HOME/floorcall/config.toml) > the
default. The file is read with the standard library's tomllib, only when it exists (the lookup
path stays light), and rewritten only by `floor config set`, one line at a time, atomically.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from floorcall.core.errors import FloorError, shown

CONFIG_ENV = "FLOORCALL_CONFIG"  # a whole other file, e.g. for a second event on the same machine
HOUSES = ("dttf", "none")
# setting -> (environment variable, default, what it is)
SETTINGS = {
    "house": ("FLOORCALL_HOUSE", "dttf", "the rules in force: dttf (the league's house rules over TDA 2024) or none (pure TDA 2024)"),
    "name": ("FLOORCALL_NAME", "", "the floorperson's name, kept with each ruling saved"),
    "event": ("FLOORCALL_EVENT", "", "tonight's event, kept with each ruling saved"),
    "db": ("FLOORCALL_DB", "", "the ruling log's database (default: $XDG_DATA_HOME/floorcall/rulings.sqlite3)"),
}
KEY_LINE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=')


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME")
    base_path = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return base_path / "floorcall" / "config.toml"


def read_file(path: Path | None = None) -> dict[str, str]:
    """The settings in the config file ({} when there is none); a malformed file is one clear line."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise FloorError(f"cannot read the config file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"line (\d+)", str(exc))
        raise FloorError(f"{path}:{where.group(1) if where else 1}: the config file is not valid TOML ({str(exc).split(' (at')[0]})"
                         " — fix it, or delete it to use the defaults") from None
    settings = {}
    for key, value in data.items():
        if key not in SETTINGS:
            raise FloorError(f"{path}:{_line_of(text, key)}: unknown setting '{shown(key)}' — settings: {', '.join(SETTINGS)}")
        if not isinstance(value, str):
            raise FloorError(f"{path}:{_line_of(text, key)}: {key} must be a quoted string, e.g. {key} = \"{SETTINGS[key][1] or 'value'}\"")
        settings[key] = value
    if "house" in settings:
        validate_house(settings["house"], f"{path}:{_line_of(text, 'house')}: ")
    return settings


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        match = KEY_LINE.match(line)
        if match and match.group(1) == key:
            return number
    return 1


def validate_house(value: str, where: str = "") -> str:
    if value not in HOUSES:
        raise FloorError(f"{where}unknown house '{shown(value)}' — use dttf (house rules) or none (pure TDA 2024)")
    return value


def effective(key: str, option: str | None = None) -> tuple[str, str]:
    """(value, where it came from) for one setting: option > environment > file > default."""
    env_name, default, _what = SETTINGS[key]
    if option is not None:
        value, source = option, "option"
    elif os.environ.get(env_name):
        value, source = os.environ[env_name], f"environment {env_name}"
    else:
        from_file = read_file() if config_path().exists() else {}
        value, source = (from_file[key], str(config_path())) if key in from_file else (default, "default")
    if key == "house":
        validate_house(value, "" if source in ("option", "default") else f"{source}: ")
    return value, source


def house(option: str | None = None) -> str:
    return effective("house", option)[0]


def set_value(key: str, value: str) -> Path:
    """Write one setting to the config file, keeping every other line as it was; atomic."""
    if key not in SETTINGS:
        raise FloorError(f"unknown setting '{shown(key)}' — settings: {', '.join(SETTINGS)}")
    if key == "house":
        validate_house(value)
    path = config_path()
    read_file(path)  # never rewrite a file we cannot read: the user fixes it first
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    new_line = f"{key} = {quoted}"
    for number, line in enumerate(lines):
        match = KEY_LINE.match(line)
        if match and match.group(1) == key:
            lines[number] = new_line
            break
    else:
        lines.append(new_line)
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return path
