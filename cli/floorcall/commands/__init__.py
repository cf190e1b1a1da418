"""The command-line layer: the typer app, the fast lookup path, prompts and terminal rendering."""
