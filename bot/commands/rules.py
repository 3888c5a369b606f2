"""``conductor rules``: the rules in force for a game and its settings, and the shared
``--set``/``--cards`` options every command that starts a game takes.

Settings are read from the game's registry entry (``GameSpec.settings``), so this module never
knows a game's settings by name: a new game's settings appear here by being declared there.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from lang import N_, _, environment_language, set_language, text_of
from lang.refusals import refusal_of
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, find_game
from rules.registry import GameSpec, show_setting_value

NAME = "rules"
HELP = N_(
    "Print the rules in force for a game: every setting, its value and default, and provisional values."
)


def add_setting_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose a game's own settings (shared by play, simulate and rules)."""
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a game setting (repeatable); `conductor rules --game NAME` lists them"),
    )
    parser.add_argument(
        "--cards",
        action="append",
        default=[],
        metavar="PATH",
        help=_(
            "a card file in the documented template format (repeatable); which kind of file it is "
            "is read from its header row"
        ),
    )


def settings_config(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """The config entries chosen with ``--set`` and ``--cards``; IllegalAction with a sentence for
    anything the game does not take (an unknown key, a bad value, a file that is not a card file)."""
    config = spec.parse_settings(list(getattr(args, "settings", None) or []))
    for path in list(getattr(args, "cards", None) or []):
        key = file_setting_for(spec, path)
        if key in config and config[key] != path:
            raise IllegalAction(
                "setting_two_files",
                f"Two files for {spec.setting(key).label}: {config[key]} and {path}.",
                setting=key,
                first=str(config[key]),
                second=path,
            )
        config[key] = path
    return config


def file_setting_for(spec: GameSpec, path: str) -> str:
    """The ``file`` setting a data file fills: the game tells it from the file's contents
    (``GameSpec.card_file_key``), or it is the game's only file setting."""
    files = [s.key for s in spec.settings if s.kind == "file"]
    if not files:
        raise IllegalAction("no_card_files", f"{spec.title} loads no card files.", game=spec.title)
    if spec.card_file_key is None:
        if len(files) > 1:
            raise IllegalAction(
                "card_file_which",
                f"Say which file {path} is with --set KEY=PATH ({', '.join(files)}).",
                file=path,
                keys=", ".join(files),
            )
        return files[0]
    try:
        return spec.card_file_key(path)
    except OSError as exc:
        raise IllegalAction(
            "card_file_unreadable",
            f"Cannot read the card file {path}: {exc.strerror or exc}.",
            file=path,
            reason=str(exc.strerror or exc),
        ) from None
    except ValueError as exc:
        raise IllegalAction("bad_setting", f"{exc}.") from None


def settings_lines(spec: GameSpec, config: dict[str, Any]) -> list[str]:
    """Every setting of ``spec`` with the value in force, its default and what it means, in the
    reader's language (keys and values stay as they are typed)."""
    from bot.present_rules import setting_words

    lines = []
    for s in spec.settings:
        value = config.get(s.key, s.default)
        if isinstance(value, list):
            value = tuple(value)
        none = _("none")
        shown = show_setting_value(value) if value is not None else none
        default = (
            _("default")
            if value == s.default
            else _("default {value}", value=show_setting_value(s.default) if s.default is not None else none)
        )
        choices = (
            "; " + _("choices {values}", values=", ".join(show_setting_value(c) for c in s.choices))
            if s.choices
            else ""
        )
        if s.minimum is not None and s.maximum is not None:
            choices += "; " + _("from {minimum} to {maximum}", minimum=s.minimum, maximum=s.maximum)
        label, meaning = setting_words(spec.name, s.key, s.label, s.help)
        lines.append(f"  {s.key} = {shown} ({default}{choices}) - {label}: {meaning}")
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=DEFAULT_GAME, help=_("game name (ttr or first-class)"))
    parser.add_argument(
        "--map", "--board", dest="board", default=None, help=_("board, for games that have several")
    )
    parser.add_argument("--variant", default=None, help=_("board variant"))
    add_setting_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from bot.present_rules import rules_in_words

    set_language(getattr(args, "lang", None) or environment_language())
    try:
        spec = find_game(args.game)
        config = spec.config_for(board=args.board, variant=args.variant, extra=settings_config(spec, args))
        lines = rules_in_words(spec.name, config, spec.rules_summary(config))
    except IllegalAction as exc:
        print(f"conductor rules: {text_of(refusal_of(exc))}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    if spec.settings:
        print(_("Settings (choose with --set KEY=VALUE; card files with --cards PATH):"))
        for line in settings_lines(spec, config):
            print(line)
    return 0
