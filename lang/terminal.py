"""The terminal's language: which one a ``conductor`` command line asks for, and argparse's own
words ("usage:", "options", its error messages) in that language while the line is parsed.

argparse words its texts with ``gettext`` from the standard library (its module-level ``_`` and
``ngettext``), which reads compiled ``.mo`` files Conductor does not ship. :func:`argparse_speaks`
points those two names at Conductor's catalog for the time of parsing (a help text is written,
and a usage error raised, inside :meth:`argparse.ArgumentParser.parse_args`) and puts them back
after, so nothing outside the command line sees the change.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence

from lang import M, Mn, Msg, environment_language, languages, translator

#: The texts argparse (Python 3.11) words with ``_``/``ngettext``, exactly as ``argparse.py``
#: spells them: listed here so the extraction puts them in the catalog and the completeness test
#: covers them. ``%``-placeholders are argparse's, filled by argparse; a translation keeps them.
#: The counts of the two plurals are placeholders for the extraction (argparse gives the count).
ARGPARSE_TEXTS: tuple[Msg, ...] = (
    M("usage: "),
    M("positional arguments"),
    M("options"),
    M("show this help message and exit"),
    M("%(prog)s: error: %(message)s\n"),
    M("argument %(argument_name)s: %(message)s"),
    M("the following arguments are required: %s"),
    M("one of the arguments %s is required"),
    M("unrecognized arguments: %s"),
    M("ambiguous option: %(option)s could match %(matches)s"),
    M("invalid choice: %(value)r (choose from %(choices)s)"),
    M("invalid %(type)s value: %(value)r"),
    M("expected one argument"),
    M("expected at most one argument"),
    M("expected at least one argument"),
    Mn("expected %s argument", "expected %s arguments", 2),
    M("not allowed with argument %s"),
    M("ignored explicit argument %r"),
    M("unexpected option string: %s"),
    M("unknown parser %(parser_name)r (choices: %(choices)s)"),
    M("can't open '%(filename)s': %(error)s"),
    M('argument "-" with mode %r'),
    # Mistakes of a program building a parser, not of its user; worded all the same.
    M(".__call__() not defined"),
    M("'required' is an invalid argument for positionals"),
    M("mutually exclusive arguments must be optional"),
    M("%r is not callable"),
    M("cannot merge actions - two groups are named %r"),
    M("invalid option string %(option)r: must start with a character %(prefix_chars)r"),
    M("dest= is required for options like %r"),
    M("invalid conflict_resolution value: %r"),
    M("cannot have multiple subparser arguments"),
    M("conflicting subparser: %s"),
    M("conflicting subparser alias: %s"),
    Mn("conflicting option string: %s", "conflicting option strings: %s", 2),
)

LANGUAGE_OPTION = "--lang"


def asked_language(argv: Sequence[str], env: Mapping[str, str] | None = None) -> str:
    """The language a command line asks for, known before it is parsed (argparse's own texts need
    it): ``--lang X`` or ``--lang=X`` (or an abbreviation argparse accepts, ``--la X``) naming one
    of :func:`languages`, else the environment's locale, else English. A value that is not a
    language is left for argparse to refuse, in the environment's language."""
    known = languages()
    asked: str | None = None
    tokens = list(argv)
    for index, token in enumerate(tokens):
        if token == "--":  # everything after is an operand, never an option
            break
        name, has_value, value = token.partition("=")
        if len(name) < 3 or not LANGUAGE_OPTION.startswith(name):
            continue
        if not has_value:
            value = tokens[index + 1] if index + 1 < len(tokens) else ""
        if value in known:
            asked = value
    return asked or environment_language(env)


def _gettext(code: str) -> Callable[[object], object]:
    catalog = translator(code)

    def gettext(message: object) -> object:
        # argparse also asks for the translation of a missing description (None): that stays None.
        return catalog.gettext(message) if isinstance(message, str) else message

    return gettext


def _ngettext(code: str) -> Callable[[str, str, int], str]:
    catalog = translator(code)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return catalog.ngettext(singular, plural, n)

    return ngettext


@contextlib.contextmanager
def argparse_speaks(code: str) -> Iterator[str]:
    """argparse's own words in ``code``'s language inside the block (build the parser and parse in
    it: the headings are chosen when a parser is made, "usage:" when help is written)."""
    saved = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]
    argparse._ = _gettext(code)  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext(code)  # type: ignore[attr-defined]
    try:
        yield code
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``, on the main parser and every subcommand's (so it may be given before or after
    the command's name). Its value was already read by :func:`asked_language`; argparse checks it
    and shows it in the help. No default is stored, so a subcommand never hides the main one's."""
    from lang import _

    parser.add_argument(
        LANGUAGE_OPTION,
        choices=languages(),
        default=argparse.SUPPRESS,
        help=_("language of the texts (default: from LC_ALL, LC_MESSAGES or LANG, else English)"),
    )
