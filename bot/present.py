"""Presentation shared by the Discord cogs and the terminal: text boards, hands, scores, hints,
and the optional board image from :mod:`render` (used when the renderer is installed).

Everything here is pure formatting from a game *view*; public functions take the spectator view
and private ones (``hand_text``) the seat's own view, so a caller cannot leak a hand by mistake
as long as it sends ``hand_text`` only ephemerally.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.api import FRONT_ENDS, Drawing, GameWords, View, find_front_end
from bot.names import AI_SEAT as AI_SEAT
from bot.names import PLAYED_BY_AI as PLAYED_BY_AI
from bot.names import ai_kind_words as ai_kind_words
from bot.names import fold as fold
from bot.names import names_words as names_words
from bot.names import plain_names as plain_names
from bot.names import seat_count as seat_count
from bot.names import seat_name_words as seat_name_words
from bot.names import seat_names as seat_names
from bot.stream import Line
from lang import SOURCE_LANGUAGE, M, _, _n, _p, current, text_of, using
from rules import takeback
from rules.errors import IllegalAction
from rules.games import find_game
from rules.protocol import FinalScore, visible_to
from rules.registry import GameSpec

log = logging.getLogger("conductor.present")


def spec_of_view(view: Mapping[str, Any]) -> GameSpec:
    """The registry entry of the game a (service) view belongs to."""
    return find_game(str(view.get("game") or ""))


def game_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """The game's own view (the envelope's ``detail``) with the service's additions (seat names,
    in the reader's language for AI seats; game id, seq): what a game's words, drawing and
    Discord UI read."""
    out = dict(view["detail"])
    for key in ("names", "game_id", "seq", "deadline"):
        if key in view:
            out[key] = view[key]
    if isinstance(out.get("names"), list):
        with plain_names():  # data (pictures read it too): text writes each name as it puts it in
            out["names"] = names_words(out["names"])
    return out


def _words(view: Mapping[str, Any]) -> GameWords:
    """The game's own words (a game without them: generic ones that word nothing)."""
    return find_front_end(spec_of_view(view).name).words


def phase_words(phase: str) -> str:
    """A game's phase (the envelope's ``phase``) in the reader's words; a phase of a game this
    list does not know is shown as the game names it."""
    words = {
        "setup": _p("phase", "setup"),
        "draft": _p("phase", "draft"),
        "play": _p("phase", "play"),
        "scoring": _p("phase", "scoring"),
        "over": _p("phase", "over"),
    }
    return words.get(phase, phase)


def generic_board_text(view: Mapping[str, Any]) -> str:
    """A public summary from the common envelope alone (a game with no presenter of its own)."""
    names = seat_names(view)
    title = spec_of_view(view).title
    lines = [
        "**"
        + _("Game #{game} · {title}", game=view.get("game_id", "?"), title=title)
        + "** · "
        + _("phase {phase}", phase=phase_words(str(view.get("phase") or "")))
    ]
    to_act = view.get("to_act") or []
    if to_act:
        lines.append(
            _("To play: {players}", players=", ".join(f"**{names[s]}**" for s in to_act if s < len(names)))
        )
    for seat, score in public_scores(view):
        lines.append(f"  {names[seat]}: " + _n("{n} pt", "{n} pts", score))
    return "\n".join(lines)


def board_text(view: Mapping[str, Any], *, title: str | None = None) -> str:
    """A compact public board summary (no hand, no tickets). Fits in one Discord message."""
    text = _words(view).board_text(game_view(view), title=title)
    return text if text is not None else generic_board_text(view)


def map_key(view: Mapping[str, Any]) -> Hashable | None:
    """What the board image shows that a turn can change (the game words' ``map_key``): a front end
    posts a new image only when it differs. None: the game has no key, every board is drawn."""
    return _words(view).map_key(game_view(view))


def hand_text(view: Mapping[str, Any]) -> str:
    """The viewer's private state in words. PRIVATE: ephemeral/terminal only."""
    text = _words(view).hand_text(game_view(view))
    if text is not None:
        return text
    viewer = view.get("viewer")
    names = seat_names(view)
    who = names[viewer] if isinstance(viewer, int) and viewer < len(names) else _("you")
    return _("Your seat: {seat}. Your legal moves are listed below and in /play action.", seat=who)


def public_scores(view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """``(seat, score)`` as everyone may see them now (the envelope's ``scores``)."""
    return list(enumerate(int(score) for score in view.get("scores") or []))


def breakdown_text(game_name: str | None, breakdown: dict[str, Any]) -> str:
    """A final score breakdown in the game's own words (its registry ``score_labels``; without a
    game, a plain reading of each key)."""

    def label(key: str) -> str:
        return (
            score_words(game_name, find_game(game_name).score_label(key))
            if game_name
            else key.replace("_", " ").capitalize()
        )

    return ", ".join(f"{label(k)} {v}" for k, v in breakdown.items())


def scores_text(view: Mapping[str, Any]) -> str:
    """Current scores, or the final breakdown once the game is over."""
    final = view.get("final")
    if final:
        with plain_names():  # final_text writes them
            names = seat_names(view)
        return final_text(final, names, view.get("game"))
    names = seat_names(view)
    return "\n".join(
        _("{player}: {score}", player=names[seat], score=score) for seat, score in public_scores(view)
    )


def final_text(scores: Sequence[FinalScore], names: list[str], game_name: str | None = None) -> str:
    """The final scores, best first, each with its breakdown in words."""
    lines = ["**" + _("Final scores") + "**"]
    names = names_words(names)
    for f in sorted(scores, key=lambda f: f.get("rank", 0)):
        parts = breakdown_text(game_name, f.get("breakdown") or {})
        # a sentence of the catalog, so French puts its space before the colon ("IA 1 : 121")
        lines.append(
            _(
                "{rank}. {player}: **{total}** ({parts})",
                rank=f.get("rank", "?"),
                player=names[f["seat"]],
                total=f["total"],
                parts=parts,
            )
        )
    return "\n".join(lines)


def action_hints(legal: Iterable[Any], limit: int = 12) -> str:
    """A short summary of legal actions by kind, with a few examples (a game with no presenter).
    The kinds and moves are the game's own command words, typed as shown; the sentence around
    them is the reader's."""
    by_kind: dict[str, list[str]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a.to_text())
    counts = Counter({k: len(v) for k, v in by_kind.items()})
    lines = [_("Your legal moves, typed as shown with /play action:")]
    for kind, count in counts.most_common():
        examples = by_kind[kind][: 3 if len(by_kind) > 1 else limit]
        more = (
            " " + _("(+{n} more)", n=len(by_kind[kind]) - len(examples))
            if len(by_kind[kind]) > len(examples)
            else ""
        )
        lines.append(
            _n(
                "{kind} ({n} move): {examples}",
                "{kind} ({n} moves): {examples}",
                count,
                kind=kind,
                examples=" | ".join(examples),
            )
            + more
        )
    return "\n".join(lines)


def title_words(game_name: str) -> str:
    """A game's title in the reader's language (its registry title where its words have none)."""
    spec = find_game(game_name)
    words = find_front_end(spec.name).words.title_words(spec.title)
    return words if words is not None else spec.title


def board_words(game_name: str, board_name: str) -> str:
    """One of a game's boards by its name in the reader's language (the name where none)."""
    words = find_front_end(find_game(game_name).name).words.board_words(board_name)
    return words if words is not None else board_name


def score_words(game_name: str | None, label: str) -> str:
    """A final-score label of the game's registry entry (``"Tickets completed"``) in the reader's
    language, from the game's words (the label as it is for a game without them)."""
    words = find_front_end(game_name).words.score_words(label) if game_name else None
    return words if words is not None else label


def forced_words(clause: str) -> str:
    """A rule's forced-move clause of a "skip" timeout line (the games' ``TurnSkip.forced``, an
    English sentence) in the reader's language, by the words of the game that says it; a clause no
    game's words know stays English."""
    for front in FRONT_ENDS.values():
        words = front.words.forced_words(clause)
        if words is not None:
            return words
    return clause


SEAT_NAME_PARAMS = ("name", "before")
"""Parameters of the service's sentences that hold one seat's stored name (an AI seat's is worded)."""


def said_words(said: Any, code: object | None = None) -> str:
    """A kept message (or plain string) in ``code``'s (default: the current) language. Facts the
    service gives as English text are worded too: a rule's forced-move clause (``forced``) and
    the seat names of AI seats (``names``, ``name``, ``before``)."""
    params = getattr(said, "params", None)
    if isinstance(params, Mapping) and any(
        isinstance(params.get(k), str) for k in ("forced", "names", *SEAT_NAME_PARAMS)
    ):
        with using(current() if code is None else code):
            worded = dict(params)
            if isinstance(params.get("forced"), str):
                worded["forced"] = forced_words(params["forced"])
            if isinstance(params.get("names"), str):
                worded["names"] = ", ".join(seat_name_words(n) for n in params["names"].split(", "))
            for key in SEAT_NAME_PARAMS:
                if isinstance(params.get(key), str):
                    worded[key] = seat_name_words(params[key])
        said = replace(said, params=worded)
    return text_of(said, code)


def line_words(line: Line) -> str:
    """A public line's sentence in the current language: its kept message, else its engine event
    worded by the game's presenter (``event_words``), else the English it was written in."""
    if line.said is not None:
        return said_words(line.said)
    event = line.event
    if isinstance(event, dict) and event.get("game"):
        try:
            words = find_front_end(find_game(str(event["game"])).name).words
        except Exception:  # noqa: BLE001 - an unknown game keeps its English line
            words = None
        text = words.event_words(event) if words is not None else None
        if text:
            return text
    return line.text


def line_plain(line: Line, names: tuple[str, ...] | list[str]) -> str:
    """:func:`line_words` with the actor's name before it, no markup (the terminal)."""
    text = line_words(line)
    if line.seat is None or not 0 <= line.seat < len(names):
        return text
    return f"{seat_name_words(names[line.seat])} {text}"


# ---- the move log, worded when it is read ----------------------------------------------------
SEAT_REF = re.compile(r"\bSeat (\d+)\b")
TAKE_BACK_WORDS = M("took back their last move.")


def replayed_lines(
    spec: GameSpec,
    config: dict[str, Any],
    players: int,
    seed: int,
    snapshot: dict[str, Any] | None,
    moves: Sequence[tuple[int, int, dict[str, Any]]],
    names: Sequence[str],
    board: str | None = None,
) -> dict[int, list[Line]]:
    """The public lines of each move (``seq`` -> lines), rebuilt by replaying the game from its
    config and seed: the engine's events (kind and facts) of each move, as everyone may see
    them, so a presenter can word them for any reader. ``moves`` are ``(seq, seat,
    action_json)`` from the first move in order; a move that cannot be replayed ends the replay
    (the moves from there keep their stored text)."""
    out: dict[int, list[Line]] = {}
    try:
        game = (
            spec.replay_start(config, players, seed, snapshot)
            if spec.replay_start is not None and snapshot
            else spec.new(config, players, seed)
        )
    except (IllegalAction, KeyError, ValueError, TypeError):
        return out
    if spec.replay_copy is not None:
        game = spec.replay_copy(game)
    # A take-back entry brings back the game as it was before the move it cancels: a copy is kept
    # before each move a later take-back cancels (rules/takeback.py), and only then.
    gone = set(takeback.cancelled(moves, lambda m: takeback.is_take_back(m[2])))
    before: list[Any] = []
    for i, (seq, seat, action_json) in enumerate(moves):
        if takeback.is_take_back(action_json):
            if before:
                game = before.pop()
            out[seq] = [Line(seat, str(TAKE_BACK_WORDS), said=TAKE_BACK_WORDS)]
            continue
        if i in gone:
            before.append(game.copy())
        try:
            action = spec.action_from_json(action_json)
            events = game.apply(seat, action)
        except Exception:  # noqa: BLE001 - a move that no longer replays keeps its stored text
            log.info("the log replay stopped at move %s", seq)
            break
        lines: list[Line] = []
        for e in events or []:
            if not isinstance(e, dict) or not e.get("text") or not visible_to(e, None):
                continue
            who = e.get("seat")
            text = SEAT_REF.sub(
                lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], str(e["text"])
            )
            event = {**e, "game": spec.name, "board": board}
            if isinstance(who, int) and 0 <= who < len(names):
                name = names[who]
                lines.append(
                    Line(who, text[len(name) :].lstrip() if text.startswith(name) else text, event=event)
                )
            else:
                lines.append(Line(None, text, event=event))
        if not lines:
            text = action.public_text()
            lines.append(Line(seat, text, event={"type": "action", "action": text, "game": spec.name}))
        out[seq] = lines
    return out


def log_entry_words(seq: int, actor: str, seat: int, lines: Sequence[Line], names: Sequence[str]) -> str:
    """One move of the log in the current language: its number, then each public line with the
    name of the seat it is about (``actor`` for the seat that moved)."""
    shown = list(names)
    if 0 <= seat < len(shown):
        shown[seat] = actor
    return f"{seq}. " + " ".join(line_plain(line, shown) for line in lines)


def unreplayable_entry_words(seq: int, record: str) -> str:
    """A move today's rules cannot replay (stored by older rules), in the current language: its
    number, a sentence saying it can no longer be shown in the reader's language, then
    ``record``, the English sentence kept with it (an English reader reads the record alone)."""
    if current() == SOURCE_LANGUAGE:
        return f"{seq}. {record}"
    return f"{seq}. " + _(
        "This move can no longer be shown in your language. The original record, in English: {record}",
        record=record,
    )


def unreadable_entry_words(seq: int, actor: str) -> str:
    """A move with neither a kept sentence nor an action today's rules can read: who made it."""
    return f"{seq}. " + _("{player} made a move that can no longer be read.", player=seat_name_words(actor))


def in_language(view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` with the current language written in it, for a picture drawn elsewhere: a worker
    process does not inherit the caller's language (a context variable), so the view carries it."""
    return {**view, "language": view.get("language") or current()}


def _drawn(view: Mapping[str, Any]) -> tuple[Drawing, View] | None:
    """The game's drawing and the view it draws from (its own detail, worded), or None."""
    front = find_front_end(spec_of_view(view).name)
    if front.drawing is None:
        return None
    # the image speaks the reader's (or the game's) language: the one the view carries, else the
    # current one; and shows names as they are (a front end's markup is for its text)
    with using(view.get("language") or current()) as language, plain_names():
        detail = game_view(view)
        detail.setdefault("language", language)
        # the game's words word the view's data texts (a board's notes) for the image
        return front.drawing, front.words.view_words(detail)


def _draw(
    drawing: Drawing, detail: View, draw: Callable[[Drawing, View], bytes | None], what: str
) -> bytes | None:
    try:
        data = draw(drawing, detail)
    except Exception:  # noqa: BLE001 - a broken image must never stop a game; text is posted instead
        log.exception("%s render failed", what)
        return None
    return None if data is None else bytes(data)


def _call(view: Mapping[str, Any], draw: Callable[[Drawing, View], bytes | None], what: str) -> bytes | None:
    drawn = _drawn(view)
    return None if drawn is None else _draw(*drawn, draw, what)


def render_board_png(view: Mapping[str, Any]) -> bytes | None:
    """The board image for a public view, or None when no renderer is installed or it fails."""
    return _call(view, lambda d, v: d.board_png(v), "board")


def render_hand_png(view: Mapping[str, Any]) -> bytes | None:
    """The private image for one seat's view (ephemeral only), or None."""
    return _call(view, lambda d, v: d.hand_png(v), "hand")


def hand_picture(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the hand picture of a seat's view is drawn from: the game's ``hand_state`` of it
    (``{"game": name, "state": ...}``, for :func:`render_hand_state_png`), or None when the game
    draws no pictures. Two views with equal hand pictures give equal values: the picture's key."""
    drawn = _drawn(view)
    if drawn is None:
        return None
    drawing, detail = drawn
    return {"game": spec_of_view(view).name, "state": drawing.hand_state(detail)}


def hand_picture_key(picture: Mapping[str, Any]) -> str:
    """A short fingerprint of a :func:`hand_picture` (JSON data), naming the picture it draws."""
    text = json.dumps(picture, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def render_hand_state_png(picture: Mapping[str, Any]) -> bytes | None:
    """The hand picture of a :func:`hand_picture` (in a worker process: a module-level function)."""
    front = find_front_end(str(picture["game"]))
    if front.drawing is None:
        return None
    return _draw(front.drawing, dict(picture["state"]), lambda d, v: d.hand_png(v), "hand")


def render_summary_png(view: Mapping[str, Any]) -> bytes | None:
    """The end-of-game summary image, or None (a game may have none)."""
    return _call(view, lambda d, v: d.summary_png(v), "summary")
