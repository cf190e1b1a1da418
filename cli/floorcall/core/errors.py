"""The one exception type every user-facing failure is raised as."""


# Exit codes, the same for every command (the README lists them).
EXIT_SHOWN = 0        # something was shown: a ruling, a rule, a list
EXIT_NOT_FOUND = 1    # nothing found: an unknown id, a lookup that matches nothing
EXIT_USAGE = 2        # the command was used wrongly: a bad option, a malformed value
EXIT_PENDING = 3      # a walk stopped at a question not yet answered
EXIT_INTERRUPTED = 130  # Ctrl-C


class FloorError(Exception):
    """A problem the user can fix; the CLI prints it as one line on stderr and exits non-zero."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


# What a user typed or named is echoed back at most this long, so one bad argument stays one line.
MAX_ECHO = 80


def shown(text: object, limit: int = MAX_ECHO) -> str:
    """`text` as it may appear in a message: control characters made visible, at most `limit` characters."""
    visible = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return visible if len(visible) <= limit else visible[: limit - 1] + "…"
