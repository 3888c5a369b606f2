"""``conductor --help``, every subcommand's ``--help`` and argparse's usage errors are in the
reader's language: ``--lang`` (before or after the command's name), else the locale, else English.

Promises checked: argparse's own words ("usage:", the headings, its error sentences) and every
help text of every parser come from the catalog; no English sentence of the catalog is left in a
non-English help or error; English reads exactly as argparse always wrote it; argparse and the
process's language are put back after each command line.
"""

from __future__ import annotations

import argparse
import ast
import gettext
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import lang
from bot.cli import COMMAND_NAMES, build_parser, main
from lang.extract import committed_template
from lang.terminal import ARGPARSE_TEXTS, argparse_speaks, asked_language

TRANSLATED = ("it", "fr", "de")
ROOT = Path(__file__).resolve().parents[2]

#: What each language's help must show: argparse's usage prefix, its two headings and the help of
#: ``-h``, and one of our own texts (the main parser's description).
HELP_WORDS = {
    "it": (
        "uso: conductor",
        "argomenti posizionali:",
        "opzioni:",
        "mostra questo messaggio di aiuto ed esce",
        "Giochi da tavolo ferroviari su Discord e nel tuo terminale.",
    ),
    # argparse writes a heading's colon itself, without French's space
    "fr": (
        "usage : conductor",
        "arguments positionnels:",
        "options:",
        "affiche ce message d'aide et quitte",
        "Des jeux de plateau ferroviaires sur Discord et dans votre terminal.",
    ),
    "de": (
        "Aufruf: conductor",
        "Positionsargumente:",
        "Optionen:",
        "diese Hilfe anzeigen und beenden",
        "Eisenbahn-Brettspiele auf Discord und in deinem Terminal.",
    ),
}
ENGLISH_WORDS = (
    "usage: conductor",
    "positional arguments:",
    "options:",
    "show this help message and exit",
    "Train board games on Discord, and in your terminal.",
)


def _english_scan() -> ModuleType:
    """tests/e2e/english_scan.py, the suite's one definition of an English leak."""
    spec = importlib.util.spec_from_file_location("english_scan", ROOT / "tests" / "e2e" / "english_scan.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def english() -> list[str]:
    """The catalog's English sentences (long enough to be unmistakable)."""
    return list(_english_scan().english_sentences(committed_template("conductor")))


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Each test leaves the process in English (and argparse with its own gettext)."""
    yield
    lang.set_language("en")
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]


def _flat(text: str) -> str:
    """argparse wraps help to the terminal's width: compare texts with single spaces."""
    return " ".join(text.split())


def _leaks(text: str, english: list[str]) -> list[str]:
    flat = _flat(text)
    return [sentence for sentence in english if _flat(sentence) in flat]


def _exit_code(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    return int(ended.value.code or 0)


@pytest.mark.parametrize("code", TRANSLATED)
def test_main_help_is_in_the_readers_language(
    code: str, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``conductor --lang X --help``: argparse's words and ours translated, no English sentence."""
    assert _exit_code(["--lang", code, "--help"]) == 0
    out = capsys.readouterr().out
    for words in HELP_WORDS[code]:
        assert words in _flat(out), words
    assert "usage: " not in out and "show this help" not in out
    assert not _leaks(out, english)
    assert lang.current() == "en", "the command line put the process's language back"


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_every_subcommands_help_is_in_the_readers_language(
    code: str, command: str, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``conductor CMD --help --lang X``: the command's description (from the catalog), the usage
    prefix and headings translated, and none of the catalog's English sentences."""
    assert _exit_code([command, "--help", "--lang", code]) == 0
    out = capsys.readouterr().out
    module = importlib.import_module(f"bot.commands.{command}")
    assert _flat(lang.translator(code).gettext(module.HELP)) in _flat(out)
    assert _flat(module.HELP) not in _flat(out)
    assert out.startswith(HELP_WORDS[code][0].split(" conductor")[0] + " conductor " + command)
    assert HELP_WORDS[code][2] in out and HELP_WORDS[code][3] in _flat(out)
    assert not _leaks(out, english)


def _helps(parser: argparse.ArgumentParser, name: str = "conductor") -> Iterator[tuple[str, str]]:
    """``(where, help)`` of every argument of ``parser`` and of its subcommands' parsers."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{name} {choice.dest}", str(choice.help)
            for sub_name, sub in action.choices.items():
                yield from _helps(sub, f"{name} {sub_name}")
        elif action.help and action.help != argparse.SUPPRESS:
            yield f"{name} {'/'.join(action.option_strings) or action.dest}", action.help


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_help_text_of_any_argument_is_left_in_english(code: str) -> None:
    """Every help text of every parser, short ones too ("board variant"), differs from the English
    one: each goes through the catalog, none is written as a bare English literal."""
    with lang.using("en"), argparse_speaks("en"):
        english_helps = dict(_helps(build_parser()))
    with lang.using(code), argparse_speaks(code):
        translated = dict(_helps(build_parser()))
    assert translated.keys() == english_helps.keys()
    same = [where for where, text in translated.items() if text == english_helps[where]]
    assert not same, same


USAGE_ERRORS = {
    "it": (
        "conductor backup: errore: sono obbligatori i seguenti argomenti: path",
        "argomento --seat: scelta non valida: 'robot' (scegli tra 'human', 'ai')",
        "argomento --players: valore int non valido: 'tre'",
    ),
    "fr": (
        "conductor backup : erreur : les arguments suivants sont obligatoires : path",
        "argument --seat : choix invalide : 'robot' (choisissez parmi 'human', 'ai')",
        "argument --players : valeur int invalide : 'tre'",
    ),
    "de": (
        "conductor backup: Fehler: die folgenden Argumente sind erforderlich: path",
        "Argument --seat: ungültige Auswahl: 'robot' (wähle aus 'human', 'ai')",
        "Argument --players: ungültiger int-Wert: 'tre'",
    ),
}


@pytest.mark.parametrize("code", TRANSLATED)
def test_usage_errors_are_in_the_readers_language(
    code: str, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing argument, a value not among the choices and a value of the wrong type: argparse's
    sentence (and its usage line) in the reader's language, on stderr, exit code 2."""
    missing, choice, wrong_type = USAGE_ERRORS[code]
    assert _exit_code(["backup", "--lang", code]) == 2
    err = capsys.readouterr().err
    assert missing in err and HELP_WORDS[code][0].split(" conductor")[0] + " conductor backup" in err
    assert _exit_code(["play", f"--lang={code}", "--seat", "robot"]) == 2
    assert choice in capsys.readouterr().err
    assert _exit_code(["--lang", code, "play", "--players", "tre"]) == 2
    err = capsys.readouterr().err
    assert wrong_type in err
    assert "error:" not in err and "usage: " not in err and not _leaks(err, english)


def test_the_locale_chooses_when_no_lang_is_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``--lang``: LC_ALL/LC_MESSAGES/LANG decide; ``--lang`` wins over them."""
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert _exit_code(["doctor", "--help"]) == 0
    assert "Aufruf: conductor doctor" in capsys.readouterr().out
    assert _exit_code(["doctor", "--help", "--lang", "fr"]) == 0
    assert "usage : conductor doctor" in capsys.readouterr().out


def test_english_help_and_errors_read_as_argparse_writes_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In English (``C`` locale, or ``--lang en``) nothing changes: argparse's own words, our texts."""
    monkeypatch.setenv("LC_ALL", "C")
    assert _exit_code(["--help"]) == 0
    out = capsys.readouterr().out
    for words in ENGLISH_WORDS:
        assert words in _flat(out), words
    assert _exit_code(["backup", "--lang", "en"]) == 2
    assert "conductor backup: error: the following arguments are required: path" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["play", "--lang", "it"], {}, "it"),
        (["--lang=fr", "doctor"], {"LC_ALL": "de_DE.UTF-8"}, "fr"),
        (["rules", "--la", "de"], {}, "de"),  # argparse takes an unambiguous abbreviation too
        (
            ["backup", "x", "--lang", "es"],
            {"LANG": "it_IT.UTF-8"},
            "it",
        ),  # not a language: argparse refuses it
        (["play", "--name", "x", "--", "--lang", "fr"], {}, "en"),  # after "--" it is an operand
        (["doctor"], {"LC_MESSAGES": "fr_FR"}, "fr"),
        (["doctor"], {}, "en"),
    ],
)
def test_the_language_is_known_before_parsing(argv: list[str], env: dict[str, str], expected: str) -> None:
    assert asked_language(argv, env) == expected


def _argparse_texts() -> set[str | tuple[str, str]]:
    """Every text the running Python's argparse words with ``_``/``ngettext``, from its source."""
    found: set[str | tuple[str, str]] = set()
    for node in ast.walk(ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("_", "ngettext")
        ):
            strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "_" and strings:
                found.add(strings[0])
            elif len(strings) == 2:
                found.add((strings[0], strings[1]))
    return found


def test_every_text_argparse_words_is_in_the_catalog() -> None:
    """The catalog lists argparse's texts exactly as this Python's argparse.py spells them, so the
    completeness test covers them (a newer Python with new wording fails here, not in a reader's
    terminal)."""
    listed = {m.id if m.plural is None else (m.id, m.plural) for m in ARGPARSE_TEXTS}
    assert _argparse_texts() <= listed, _argparse_texts() - listed


PERCENT = re.compile(r"%(?:\((\w+)\))?[sr]")


@pytest.mark.parametrize("code", TRANSLATED)
def test_argparse_translations_keep_its_placeholders_and_format(code: str) -> None:
    """argparse fills its ``%`` placeholders itself: each translation names the same ones (a
    missing ``%(prog)s`` would crash argparse) and keeps a closing newline where it has one."""
    tr = lang.translator(code)
    for message in ARGPARSE_TEXTS:
        forms = [message.id] if message.plural is None else [message.id, message.plural]
        for index, english_form in enumerate(forms):
            said = (
                tr.gettext(message.id)
                if message.plural is None
                else tr.ngettext(message.id, message.plural, 1 if index == 0 else 2)
            )
            assert said != english_form or english_form == "options" and code == "fr", (code, english_form)
            assert sorted(PERCENT.findall(said)) == sorted(PERCENT.findall(english_form)), (code, said)
            assert said.endswith("\n") == english_form.endswith("\n")
            named = {name: "x" for name in PERCENT.findall(english_form) if name}
            assert (said % named) if named else (said % (("x",) * len(PERCENT.findall(said))))
