"""The ``conductor`` command line: ``run``, ``play``, ``simulate``, ``rules``, ``render``, ``replay``, ``backup``, ``export``,
``doctor``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

import bot.games.catalog  # noqa: F401 - registers the application's games for every command
from bot.commands import backup, doctor, export, migrate, play, render, replay, rules, run, simulate, site
from lang import _, using
from lang.terminal import add_language_option, argparse_speaks, asked_language


class Command(Protocol):
    """A subcommand module: its name, its help (marked for translation), its arguments and its run."""

    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    @property
    def run(self) -> Callable[[argparse.Namespace], int]: ...


COMMANDS: tuple[Command, ...] = (
    run,
    play,
    simulate,
    rules,
    render,
    replay,
    backup,
    export,
    doctor,
    migrate,
    site,
)
COMMAND_NAMES = tuple(command.NAME for command in COMMANDS)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, worded in the current language (build it where argparse speaks
    it too: :func:`lang.terminal.argparse_speaks`)."""
    parser = argparse.ArgumentParser(
        prog="conductor", description=_("Train board games on Discord, and in your terminal.")
    )
    add_language_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        cmd = sub.add_parser(module.NAME, help=_(module.HELP), description=_(module.HELP))
        module.add_arguments(cmd)
        add_language_option(cmd)
        cmd.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line. Everything it prints, argparse's help and errors included, is in the
    language it asks for (``--lang``), else the environment's; the process's language is put back
    after (a test, or a program calling this, reads on in its own)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    code = asked_language(argv)
    with using(code):
        with argparse_speaks(code):
            parser = build_parser()
            args = parser.parse_args(argv)
            if not getattr(args, "handler", None):
                parser.print_help()
                return 2
        return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
