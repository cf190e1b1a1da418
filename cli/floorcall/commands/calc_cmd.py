"""`floor calc …` for typer: each command declares its options (help, completion) and hands them
to one `*_lines` function of commands.calc_run, which calls `floorcall.engines.calc`; it prints a
few plain lines ending with the rules applied (or JSON with --json).

Numbers are taken as text and parsed by `calc`, so a bad number is one clear line on stderr,
never a usage dump or a traceback.
"""

from __future__ import annotations

from typing import Optional

import typer

from floorcall.commands import calc_run
from floorcall.commands.calc_run import RULE_TITLES, rules_line  # noqa: F401  (the tests and docs name them here)
from floorcall.commands.support import HELP_OPTIONS, epilog
from floorcall.commands.support import command as cli_command

calc_app = typer.Typer(
    context_settings=HELP_OPTIONS, epilog=epilog("calc"),
    help="Do the arithmetic behind a ruling: raises, chips, pot-limit, penalties, hand-for-hand, balancing, chip races.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def command(*names, **options):
    return cli_command(calc_app, *names, **options)


def finish(result, lines: list[str], as_json: bool) -> None:
    typer.echo(calc_run.output(result, lines, as_json))


JSON_HELP = "Print JSON."

# ---------------------------------------------------------------- raise


@command("raise")
def raise_command(
    blinds: Optional[str] = typer.Option(None, "--blinds", help="Small/big blind, e.g. 100/200."),
    actions: Optional[str] = typer.Option(None, "--actions", help='This round\'s actions in order: "bet 600, raise 1600, allin 1700" (amounts are totals); name players to have them act again: "A bet 100, B allin 125, A call".'),
    preflop: bool = typer.Option(False, "--preflop", help="Pre-flop: the blinds are posted (players SB and BB) and the big blind is the bet."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """The bet to call, the minimum legal raise, and who may still raise (Rules 43, 47)."""
    finish(*calc_run.raise_lines(blinds=blinds, actions=actions, preflop=preflop), as_json)




# ---------------------------------------------------------------- chips


@command("chips")
def chips_command(
    facing: Optional[str] = typer.Option(None, "--facing", help="The bet to call, as a total for the round (e.g. 1100)."),
    min_raise: Optional[str] = typer.Option(None, "--min-raise", help="The minimum raise: the largest full bet or raise this round, at least the big blind (not facing a bet: the minimum bet)."),
    chips: Optional[str] = typer.Option(None, "--chips", help="The chips put out: 1000,100,100 or 1000,5x100."),
    last_chips: bool = typer.Option(False, "--last-chips", help="They are the player's last chips."),
    declared: str = typer.Option("none", "--declared", help="What was said before the chips landed: none, call, raise or allin."),
    prior: Optional[str] = typer.Option(None, "--prior", help="His earlier bet chips in front of him this round, e.g. 25,25 (Rule 46)."),
    pulled: str = typer.Option("none", "--pulled", help="What he did with those earlier chips: none (left alone), all (pulled back) or some (--prior = the chips still out)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """Read a silent push of chips: call, raise (to what) or all-in (Rules 44, 45, 46)."""
    finish(*calc_run.chips_lines(facing=facing, min_raise=min_raise, chips=chips, last_chips=last_chips, declared=declared, prior=prior, pulled=pulled), as_json)




# ---------------------------------------------------------------- pot


@command("pot")
def pot_command(
    pot: Optional[str] = typer.Option(None, "--pot", help="Every chip in the middle plus all bets in front of players, his own included."),
    call: Optional[str] = typer.Option(None, "--call", help="What he must add to call (0 when nobody has bet)."),
    in_front: Optional[str] = typer.Option(None, "--in-front", help="His own chips already bet this round (part of --pot); default 0."),
    blinds: Optional[str] = typer.Option(None, "--blinds", help="Pre-flop only: SB/BB, counted as posted in full (Rule 54-B). Without --pot: the first player to act."),
    dead_sb: bool = typer.Option(False, "--dead-sb", help="Pre-flop: the small blind is dead (not posted)."),
    short_sb: Optional[str] = typer.Option(None, "--short-sb", help="Pre-flop: the small blind posted only this much (all-in)."),
    short_bb: Optional[str] = typer.Option(None, "--short-bb", help="Pre-flop: the big blind posted only this much (all-in)."),
    bet: Optional[str] = typer.Option(None, "--bet", help="A pot bet made on the dealer's wrong count, as his total (Rule 52-B)."),
    after_sa: bool = typer.Option(False, "--after-sa", help="With --bet: substantial action happened after the bet."),
    next_card: bool = typer.Option(False, "--next-card", help="With --bet: the next card has been dealt."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """Pot-limit maximum bet or raise; pre-flop, dead or short blinds count as full (Rule 54)."""
    finish(*calc_run.pot_lines(pot=pot, call=call, in_front=in_front, blinds=blinds, dead_sb=dead_sb, short_sb=short_sb, short_bb=short_bb, bet=bet, after_sa=after_sa, next_card=next_card), as_json)


# ---------------------------------------------------------------- penalty


@command("penalty")
def penalty_command(
    players: Optional[str] = typer.Option(None, "--players", help="Players at the table when the penalty is given, the offender included."),
    rounds: str = typer.Option("1", "--rounds", help="Penalty rounds (default 1)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """The missed-hand length of a missed-round penalty and what it means at the table (Rule 71)."""
    finish(*calc_run.penalty_lines(players=players, rounds=rounds), as_json)


# ---------------------------------------------------------------- hand for hand


@command("h4h")
def h4h_command(
    level_left: Optional[str] = typer.Option(None, "--level-left", help="Time left in the level at the announcement, e.g. 17:30."),
    hands: Optional[str] = typer.Option(None, "--hands", help="Hands played hand-for-hand, counting the hand in progress at the announcement."),
    edition: str = typer.Option("2024", "--edition", help="2024 (2 minutes per hand, at most 3) or 2019 (a fixed 2 minutes)."),
    minutes_per_hand: Optional[str] = typer.Option(None, "--minutes-per-hand", help="2024 only: minutes off the clock per hand, at most 3 (default 2, as RP-8-C and D say), e.g. 3 or 2:30."),
    level_minutes: Optional[str] = typer.Option(None, "--level-minutes", help="Length of the next levels, needed if the clock runs past the end of this one."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """Hand-for-hand clock run-off per RP-8 and the levels reached."""
    finish(*calc_run.h4h_lines(level_left=level_left, hands=hands, edition=edition, minutes_per_hand=minutes_per_hand, level_minutes=level_minutes), as_json)


# ---------------------------------------------------------------- balance


@command("balance")
def balance_command(
    tables: Optional[str] = typer.Option(None, "--tables", help="Players at each table: 9,7,8,5 (tables 1-4) or 12=9,14=7 (table=players)."),
    seats: str = typer.Option(str(9), "--seats", help="Seats per table in this event (default 9)."),
    of: Optional[str] = typer.Option(None, "--of", help="Tables in play, when --tables counts only some of them so far."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """Balance or break tables, who moves, and the final-table combination (DTTF, TDA 11, RP-9)."""
    finish(*calc_run.balance_lines(tables=tables, seats=seats, of=of), as_json)


# ---------------------------------------------------------------- chip race


@command("chip-race")
def chip_race_command(
    stacks: Optional[str] = typer.Option(None, "--stacks", help="seat:chips of the denomination being removed, e.g. 1:3,2:1,3:0."),
    denomination: Optional[str] = typer.Option(None, "--denomination", help="The chip being removed, e.g. 25."),
    next_denomination: Optional[str] = typer.Option(None, "--next", help="The smallest chip still in play, e.g. 100."),
    no_other_chips: Optional[str] = typer.Option(None, "--no-other-chips", help="Seats whose only chips are the ones being raced, e.g. 4,7."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
):
    """A scheduled colour-up chip race: seat 1 first, at most one chip each, nobody raced out (Rule 24)."""
    finish(*calc_run.chip_race_lines(stacks=stacks, denomination=denomination, next_denomination=next_denomination, no_other_chips=no_other_chips), as_json)
