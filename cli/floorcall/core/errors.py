"""The one exception type every user-facing failure is raised as."""


class FloorError(Exception):
    """A problem the user can fix; the CLI prints it as one line on stderr and exits non-zero."""

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
