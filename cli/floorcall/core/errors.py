"""The one exception type every user-facing failure is raised as."""


class FloorError(Exception):
    """A problem the user can fix; the CLI prints it as one line on stderr and exits non-zero."""

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


# What a user typed or named is echoed back at most this long, so one bad argument stays one line.
MAX_ECHO = 80


def shown(text: object, limit: int = MAX_ECHO) -> str:
    """`text` as it may appear in a message: control characters made visible, at most `limit` characters."""
    visible = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return visible if len(visible) <= limit else visible[: limit - 1] + "…"
