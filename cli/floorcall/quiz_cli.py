"""`floor quiz …`: training quizzes (being built)."""

import typer

quiz_app = typer.Typer(help="Training quizzes drawn from the rulings and rules.", invoke_without_command=True)
