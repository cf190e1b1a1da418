"""Placeholder until lookup lands."""
from floorcall.errors import FloorError
def run_lookup_from_args(args):
    raise FloorError("lookup is not built yet")
def run_lookup(root, query, limit, as_json, house):
    raise FloorError("lookup is not built yet")
