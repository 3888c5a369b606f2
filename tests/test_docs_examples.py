"""The documentation shows only what works: README.md and every docs/*.md.

Promises checked, each by its own test:

- every ```python block runs: a page's blocks in order, in one namespace, in a temporary working
  directory (one test per block, so a failure names the page and the line);
- Python blocks are plain scripts, never doctest sessions (no ``>>>`` prompts: results are shown
  with ``assert`` or a comment), and every fence names its language;
- every ``conductor`` command the pages show is accepted by the real command-line parser;
- every repository path the pages name in code exists;
- every relative link points to a file that exists, and every ``#anchor`` to a heading in it;
- the README is at most 200 lines, so a newcomer reads it in five minutes;
- the invite address in the README asks for exactly the permissions it names.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 200

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Info strings that would hide a Python example from the runner: write ```python.
PYTHON_ALIASES = {"py", "python3", "py3", "pycon", "ipython", "pytb"}
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(?P<ticks>`+)(?P<code>.+?)(?P=ticks)")
REPO_PATH = re.compile(r"^(?:rules|render|bot|lang|tests|bench|docs)/[\w./*-]*$|^\.env\.example$")


def rel(path: Path) -> str:
    """A page's name as the failures give it: relative to the repository (a test's own page: its name)."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return path.name


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language (the fence's info string), first line, text."""

    page: Path
    line: int
    language: str
    text: str

    @property
    def where(self) -> str:
        return f"{rel(self.page)}:{self.line}"


def fenced_blocks(page: Path) -> list[Block]:
    """Every fenced code block of ``page``, in order (the content without the fence's indent)."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = FENCE.match(lines[j])
            if (
                closing
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"].strip()
            ):
                break
            line = lines[j]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            j += 1
        else:
            raise AssertionError(f"{rel(page)}:{i + 1}: a fence that is never closed")
        blocks.append(Block(page, i + 1, opening["info"].strip().split(" ")[0], "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def prose_lines(page: Path) -> Iterator[tuple[int, str]]:
    """The page's lines outside fenced blocks, numbered from 1."""
    inside: str | None = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(line)
        if fence and inside is None:
            inside = fence["fence"]
            continue
        if fence and inside is not None and fence["fence"][0] == inside[0] and not fence["info"].strip():
            inside = None
            continue
        if inside is None:
            yield number, line


def code_spans(page: Path) -> Iterator[tuple[int, str]]:
    for number, line in prose_lines(page):
        for span in CODE_SPAN.finditer(line):
            yield number, span["code"].strip()


def slug(heading: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading: link text kept, lower case, punctuation dropped, spaces to
    hyphens; a repeated heading gets -1, -2 …"""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    count = seen.get(text, 0)
    seen[text] = count + 1
    return text if count == 0 else f"{text}-{count}"


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    return {
        slug(m[1], seen)
        for _n, line in prose_lines(page)
        if (m := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line))
    }


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` whose file, or whose anchor in that file, does not exist."""
    problems: list[str] = []
    for number, line in prose_lines(page):
        for link in LINK.finditer(CODE_SPAN.sub("", line)):
            target = link["target"].strip("<>")
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …: not a file of ours
                continue
            path_part, _hash, anchor = target.partition("#")
            where = f"{rel(page)}:{number}: [{link['text']}]({target})"
            file = (page.parent / path_part).resolve() if path_part else page
            if not file.exists():
                problems.append(f"{where}: no file {path_part}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{where}: no heading #{anchor} in {rel(file)}")
    return problems


def run_blocks(blocks: list[Block], upto: int) -> None:
    """Run ``blocks[0..upto]`` in one namespace; the earlier ones are the example's set-up."""
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for index, block in enumerate(blocks[: upto + 1]):
        try:
            code = compile(block.text, block.where, "exec")
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
        except Exception:  # noqa: BLE001 - reported with the block that raised it
            if index < upto:
                pytest.fail(
                    f"the example at {block.where}, which {blocks[upto].where} builds on, fails:\n"
                    f"{traceback.format_exc()}"
                )
            pytest.fail(f"the example at {block.where} does not run:\n{traceback.format_exc()}")


def python_blocks(page: Path) -> list[Block]:
    return [b for b in fenced_blocks(page) if b.language == "python"]


PYTHON_CASES = [
    pytest.param(page, i, id=block.where) for page in PAGES for i, block in enumerate(python_blocks(page))
]


@pytest.mark.parametrize(("page", "index"), PYTHON_CASES)
def test_every_python_example_runs(
    page: Path, index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run_blocks(python_blocks(page), index)


def test_the_readme_has_a_python_example_to_run() -> None:
    assert python_blocks(README), (
        "README.md shows the rules library in a ```python block, which these tests run"
    )


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_python_examples_are_scripts_and_every_fence_names_its_language(page: Path) -> None:
    problems = []
    for block in fenced_blocks(page):
        if not block.language:
            problems.append(f"{block.where}: a fence without a language (```python, ```bash, ```text …)")
        elif block.language in PYTHON_ALIASES:
            problems.append(f"{block.where}: ```{block.language}: write ```python, which the tests run")
        elif block.language == "python" and any(
            line.lstrip().startswith(">>>") for line in block.text.splitlines()
        ):
            problems.append(f"{block.where}: a doctest prompt (>>>): Python examples are plain scripts")
    assert not problems, "\n".join(problems)


def conductor_commands(page: Path) -> Iterator[tuple[str, str, bool]]:
    """``(where, command, mention)`` for each ``conductor …`` command in the page's shell blocks
    (commands to run) and code spans (mentions in the text)."""
    for block in fenced_blocks(page):
        if block.language not in SHELL_LANGUAGES:
            continue
        for offset, line in enumerate(block.text.splitlines(), start=1):
            for part in re.split(r"&&|\|\||;|\|", line.split(" #")[0]):
                if part.strip().startswith("conductor "):
                    yield f"{rel(block.page)}:{block.line + offset}", part.strip(), False
    for number, code in code_spans(page):
        if re.match(r"conductor [a-z-]+(\s|$)", code):  # not a quoted message ("conductor build: …")
            yield f"{rel(page)}:{number}", code, True


def refusal(command: str, *, mention: bool = False) -> str | None:
    """What the real parser says against ``command`` (None when it accepts it). A ``mention`` in
    running text (`conductor export`) may leave out the command's required arguments."""
    from bot.cli import build_parser
    from lang import SOURCE_LANGUAGE, using

    err = io.StringIO()
    try:
        with (
            using(SOURCE_LANGUAGE),
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            build_parser().parse_args(shlex.split(command)[1:])
    except SystemExit as exc:
        said = err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else f"exit {exc.code}"
        if exc.code and not (mention and "arguments are required" in said):
            return said
    return None


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_conductor_command_shown_is_accepted_by_the_cli(page: Path) -> None:
    problems = [
        f"{where}: `{command}`: {said}"
        for where, command, mention in conductor_commands(page)
        if (said := refusal(command, mention=mention)) is not None
    ]
    assert not problems, "\n".join(problems)


def test_the_readme_shows_conductor_commands() -> None:
    assert any(True for _ in conductor_commands(README)), "README.md shows how to run `conductor`"


def named_paths(page: Path) -> Iterator[tuple[str, str]]:
    """Repository paths named in code spans and in the shell blocks' words (placeholders such as
    ``<board>`` or ``{it,fr}`` skipped)."""
    for number, code in code_spans(page):
        for word in code.split():
            if REPO_PATH.match(word):
                yield f"{rel(page)}:{number}", word
    for block in fenced_blocks(page):
        if block.language in SHELL_LANGUAGES:
            for offset, line in enumerate(block.text.splitlines(), start=1):
                for word in shlex.split(line, comments=True):
                    if REPO_PATH.match(word):
                        yield f"{rel(block.page)}:{block.line + offset}", word


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_repository_path_named_exists(page: Path) -> None:
    problems = []
    for where, path in named_paths(page):
        if any(c in path for c in "<>{}"):
            continue
        found = list(ROOT.glob(path.rstrip("/"))) if "*" in path else [ROOT / path]
        if not any(p.exists() for p in found):
            problems.append(f"{where}: `{path}` does not exist")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    problems = broken_links(page)
    assert not problems, "\n".join(problems)


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines; at most {README_MAX_LINES}: move detail to docs/"
    )


def test_the_invite_address_asks_for_exactly_the_permissions_the_readme_names() -> None:
    import discord

    text = README.read_text(encoding="utf-8")
    asked = re.search(r"discord\.com/oauth2/authorize\?\S*permissions=(\d+)", text)
    assert asked, "README.md gives the invite address with its permissions"
    assert "scope=bot+applications.commands" in asked[0], (
        "the invite asks for the bot and slash-command scopes"
    )
    named = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        attach_files=True,
    )
    for name in (
        "View Channels",
        "Send Messages",
        "Send Messages in Threads",
        "Create Public Threads",
        "Attach Files",
    ):
        assert f"**{name}**" in text, f"README.md names the permission {name}"
    assert int(asked[1]) == named.value, (
        f"permissions={asked[1]} is not the sum of the five named ({named.value})"
    )


# The checkers themselves: each must find what it is there to find.


def test_the_link_checker_reports_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## A section\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-section) [gone](missing.md) [bad](other.md#nowhere) "
        "[web](https://example.org/x) `[code](not-a-link.md)`\n",
        encoding="utf-8",
    )
    problems = broken_links(page)
    assert len(problems) == 2 and "no file missing.md" in problems[0] and "#nowhere" in problems[1], problems


def test_slugs_follow_github() -> None:
    seen: dict[str, int] = {}
    assert slug("Run it on your Discord server", seen) == "run-it-on-your-discord-server"
    assert slug("The `rules` library: API (v2)", seen) == "the-rules-library-api-v2"
    assert slug("Märklin tickets", seen) == "märklin-tickets"
    assert [slug("Notes", seen), slug("Notes", seen)] == ["notes", "notes-1"]


def test_a_failing_example_fails_its_test_and_names_its_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n```python\nx = 1\n```\n\n```python\nassert x == 2\n```\n", encoding="utf-8")
    blocks = fenced_blocks(page)
    assert [(b.line, b.language) for b in blocks] == [(3, "python"), (7, "python")]
    run_blocks(blocks, 0)
    with pytest.raises(pytest.fail.Exception, match=r"page\.md:7 does not run"):
        run_blocks(blocks, 1)


def test_the_cli_check_refuses_a_flag_that_does_not_exist() -> None:
    assert refusal("conductor play --map europe --players 3") is None
    assert refusal("conductor play --no-such-flag") is not None
    assert refusal("conductor teleport") is not None
    assert refusal("conductor export", mention=True) is None
    assert refusal("conductor export") is not None
