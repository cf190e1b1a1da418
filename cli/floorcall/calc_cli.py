"""`floor calc …`: the arithmetic behind betting and procedure rulings (being built)."""

import typer

calc_app = typer.Typer(help="Do the arithmetic behind a ruling: raises, chips, pot-limit, penalties, hand-for-hand, balancing, chip races.", no_args_is_help=True)
