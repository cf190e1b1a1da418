"""`floor site …`: build and serve the static rulebook site (being built)."""

import typer

site_app = typer.Typer(help="Build or serve the static rulebook site.", no_args_is_help=True)
