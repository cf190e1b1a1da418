"""The options of each `floor calc` subcommand, in a module that imports nothing: the fast path
reads them without paying for the calculators (their dataclasses) unless a calc is run."""

# Each subcommand's options: option -> (parameter, is a flag). The typer commands in calc_cmd
# declare the same options; tests/test_fastpath.py holds the two together.
OPTIONS = {
    "raise": {"--blinds": ("blinds", False), "--actions": ("actions", False), "--preflop": ("preflop", True), "--json": ("as_json", True)},
    "chips": {"--facing": ("facing", False), "--min-raise": ("min_raise", False), "--chips": ("chips", False), "--last-chips": ("last_chips", True), "--declared": ("declared", False), "--prior": ("prior", False), "--pulled": ("pulled", False), "--json": ("as_json", True)},
    "pot": {"--pot": ("pot", False), "--call": ("call", False), "--in-front": ("in_front", False), "--blinds": ("blinds", False), "--dead-sb": ("dead_sb", True), "--short-sb": ("short_sb", False), "--short-bb": ("short_bb", False), "--bet": ("bet", False), "--after-sa": ("after_sa", True), "--next-card": ("next_card", True), "--json": ("as_json", True)},
    "penalty": {"--players": ("players", False), "--rounds": ("rounds", False), "--json": ("as_json", True)},
    "h4h": {"--level-left": ("level_left", False), "--hands": ("hands", False), "--edition": ("edition", False), "--minutes-per-hand": ("minutes_per_hand", False), "--level-minutes": ("level_minutes", False), "--json": ("as_json", True)},
    "balance": {"--tables": ("tables", False), "--seats": ("seats", False), "--of": ("of", False), "--json": ("as_json", True)},
    "chip-race": {"--stacks": ("stacks", False), "--denomination": ("denomination", False), "--next": ("next_denomination", False), "--no-other-chips": ("no_other_chips", False), "--json": ("as_json", True)},
}
