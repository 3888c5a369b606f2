"""The typed state of a First Class game: dataclasses with an exact JSON form and a cheap copy.

The JSON form is the one the engine has always stored (``FirstClassGame.to_json()["state"]``), key
for key, so games saved before the state was typed load unchanged. ``copy()`` is written out by
hand: the engine copies the state on every ``apply`` (the action runs on the copy, which replaces
the old state only on success), so it must be cheap. Queued symbols are immutable and shared between
copies; the action history is only ever appended to after a successful action, so copies share the
list's entries too.

Each record also answers ``record["field"]`` (read and write) for callers written against the
earlier dict state; new code uses the attributes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

# Ops whose JSON form carries a count ``n`` (see FirstClassGame.expand).
COUNT_OPS = frozenset({"cond2", "loco", "coin", "points"})


class _Record:
    """Dict-style access to a record's fields, for callers written against the dict state."""

    def __getitem__(self, key: str) -> Any:
        if key not in self._field_names():
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self._field_names():
            raise KeyError(key)
        setattr(self, key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._field_names()

    def __iter__(self) -> Iterator[str]:
        return iter([f.name for f in fields(self)])  # type: ignore[arg-type]

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self._field_names() else default

    @classmethod
    def _field_names(cls) -> frozenset[str]:
        names: frozenset[str] | None = cls.__dict__.get("_names")
        if names is None:
            names = frozenset(f.name for f in fields(cls))  # type: ignore[arg-type]
            setattr(cls, "_names", names)  # noqa: B010 - a per-class cache, not a dataclass field
        return names


@dataclass(frozen=True)
class Symbol(_Record):
    """One queued symbol waiting for its player: ``op`` and the source it came from (a card id, a
    bonus station, a mail car...). ``n`` counts for automatic ops, ``a`` is the value a fixed
    upgrade starts from, ``options`` the effect texts of a choice, ``train`` the train of a mail car."""

    op: str
    src: str
    n: int = 0
    a: int = 0
    options: tuple[str, ...] = ()
    train: str = ""

    def __setitem__(self, key: str, value: Any) -> None:
        raise TypeError("a queued symbol cannot be changed")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.op}
        if self.op in COUNT_OPS:
            out["n"] = self.n
        if self.op == "up":
            out["a"] = self.a
        if self.op == "choice":
            out["options"] = list(self.options)
        if self.op == "mail":
            out["train"] = self.train
        out["src"] = self.src
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Symbol:
        return cls(
            op=str(obj["op"]),
            src=str(obj["src"]),
            n=int(obj.get("n", 0)),
            a=int(obj.get("a", 0)),
            options=tuple(str(o) for o in obj.get("options", ())),
            train=str(obj.get("train", "")),
        )


@dataclass
class PlayerState(_Record):
    """One player's board. Train-keyed fields are dicts ``{"upper": ..., "lower": ...}``; ``points``
    is keyed by score category; ``pending`` holds the taken card's own symbols, ``bonus`` the
    bonuses they triggered (answered after them)."""

    trains: dict[str, list[int]]
    tiles: dict[str, int | None]
    cond: dict[str, int]
    loco: int
    route_cards: list[str]
    coins: list[int]
    mails_left: list[int]
    mails_used: dict[str, int | None]
    contracts: list[str]
    completed: list[str]
    ge_cards: list[str]
    points: dict[str, int]
    pending: list[Symbol]
    bonus: list[Symbol]

    def copy(self) -> PlayerState:
        return PlayerState(
            trains={t: list(v) for t, v in self.trains.items()},
            tiles=dict(self.tiles),
            cond=dict(self.cond),
            loco=self.loco,
            route_cards=list(self.route_cards),
            coins=list(self.coins),
            mails_left=list(self.mails_left),
            mails_used=dict(self.mails_used),
            contracts=list(self.contracts),
            completed=list(self.completed),
            ge_cards=list(self.ge_cards),
            points=dict(self.points),
            pending=list(self.pending),
            bonus=list(self.bonus),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "trains": {t: list(v) for t, v in self.trains.items()},
            "tiles": dict(self.tiles),
            "cond": dict(self.cond),
            "loco": self.loco,
            "route_cards": list(self.route_cards),
            "coins": list(self.coins),
            "mails_left": list(self.mails_left),
            "mails_used": dict(self.mails_used),
            "contracts": list(self.contracts),
            "completed": list(self.completed),
            "ge_cards": list(self.ge_cards),
            "points": dict(self.points),
            "pending": [x.to_json() for x in self.pending],
            "bonus": [x.to_json() for x in self.bonus],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> PlayerState:
        return cls(
            trains={t: [int(v) for v in cars] for t, cars in obj["trains"].items()},
            tiles={t: (None if v is None else int(v)) for t, v in obj["tiles"].items()},
            cond={t: int(v) for t, v in obj["cond"].items()},
            loco=int(obj["loco"]),
            route_cards=[str(c) for c in obj["route_cards"]],
            coins=[int(c) for c in obj["coins"]],
            mails_left=[int(m) for m in obj["mails_left"]],
            mails_used={t: (None if v is None else int(v)) for t, v in obj["mails_used"].items()},
            contracts=[str(c) for c in obj["contracts"]],
            completed=[str(c) for c in obj["completed"]],
            ge_cards=[str(c) for c in obj["ge_cards"]],
            points={k: int(v) for k, v in obj["points"].items()},
            pending=[Symbol.from_json(x) for x in obj["pending"]],
            bonus=[Symbol.from_json(x) for x in obj["bonus"]],
        )


@dataclass
class DraftState(_Record):
    """The setup draft: the seats in drafting order, whose pick it is, and the hand being passed."""

    order: list[int]
    index: int
    hand: list[str]

    def copy(self) -> DraftState:
        return DraftState(list(self.order), self.index, list(self.hand))

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "index": self.index, "hand": list(self.hand)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> DraftState:
        return cls([int(x) for x in obj["order"]], int(obj["index"]), [str(x) for x in obj["hand"]])


@dataclass
class ScoringState(_Record):
    """A scoring phase: the seats in scoring order, whose step it is, and the bonus stations that
    have paid out in that step."""

    order: list[int]
    index: int
    claimed: list[int]

    def copy(self) -> ScoringState:
        return ScoringState(list(self.order), self.index, list(self.claimed))

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "index": self.index, "claimed": list(self.claimed)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> ScoringState:
        return cls([int(x) for x in obj["order"]], int(obj["index"]), [int(x) for x in obj["claimed"]])


@dataclass
class GameState(_Record):
    """Everything that changes during a game (the card data is the immutable Deck).

    ``rows``/``slots``: the 3 rows of 6 Action cards (None once gone) and each slot's status;
    ``piles``: the face-down Action piles by number ("1"-"3"); ``ge_pile``/``ge_display``: the Game End
    pile and the face-up cards; ``constantinople``: ``[seat, train]`` in arrival order; ``final``: the
    final ranking once over; ``history``: ``[seat, action text]`` for every successful action."""

    phase: str
    round: int
    start_player: int
    active: int
    turns_done: int
    taken: bool
    rows: list[list[str | None]]
    slots: list[list[str]]
    row_removed: list[int]
    row_cleared: list[bool]
    sp_taken_by: int | None
    piles: dict[str, list[str]]
    out_of_game: list[str]
    ge_pile: list[str]
    ge_display: list[str]
    draft: DraftState
    constantinople: list[list[Any]]
    tiles_left: list[int]
    scoring: ScoringState | None
    players: list[PlayerState]
    final: list[dict[str, Any]] | None
    history: list[list[Any]]

    def copy(self, history: list[list[Any]] | None = None) -> GameState:
        """An independent copy. The history list is copied (its ``[seat, text]`` entries, never changed
        in place, are shared), or ``history`` is used as it is (``apply`` passes the live list: it is
        appended to only after the action succeeded)."""
        return GameState(
            phase=self.phase,
            round=self.round,
            start_player=self.start_player,
            active=self.active,
            turns_done=self.turns_done,
            taken=self.taken,
            rows=[list(r) for r in self.rows],
            slots=[list(r) for r in self.slots],
            row_removed=list(self.row_removed),
            row_cleared=list(self.row_cleared),
            sp_taken_by=self.sp_taken_by,
            piles={k: list(v) for k, v in self.piles.items()},
            out_of_game=list(self.out_of_game),
            ge_pile=list(self.ge_pile),
            ge_display=list(self.ge_display),
            draft=self.draft.copy(),
            constantinople=[list(x) for x in self.constantinople],
            tiles_left=list(self.tiles_left),
            scoring=None if self.scoring is None else self.scoring.copy(),
            players=[p.copy() for p in self.players],
            final=None
            if self.final is None
            else [dict(r, breakdown=dict(r["breakdown"])) for r in self.final],
            history=list(self.history) if history is None else history,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "start_player": self.start_player,
            "active": self.active,
            "turns_done": self.turns_done,
            "taken": self.taken,
            "rows": [list(r) for r in self.rows],
            "slots": [list(r) for r in self.slots],
            "row_removed": list(self.row_removed),
            "row_cleared": list(self.row_cleared),
            "sp_taken_by": self.sp_taken_by,
            "piles": {k: list(v) for k, v in self.piles.items()},
            "out_of_game": list(self.out_of_game),
            "ge_pile": list(self.ge_pile),
            "ge_display": list(self.ge_display),
            "draft": self.draft.to_json(),
            "constantinople": [list(x) for x in self.constantinople],
            "tiles_left": list(self.tiles_left),
            "scoring": None if self.scoring is None else self.scoring.to_json(),
            "players": [p.to_json() for p in self.players],
            "final": None
            if self.final is None
            else [dict(r, breakdown=dict(r["breakdown"])) for r in self.final],
            "history": [list(h) for h in self.history],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GameState:
        final = obj.get("final")
        return cls(
            phase=str(obj["phase"]),
            round=int(obj["round"]),
            start_player=int(obj["start_player"]),
            active=int(obj["active"]),
            turns_done=int(obj["turns_done"]),
            taken=bool(obj["taken"]),
            rows=[[None if c is None else str(c) for c in r] for r in obj["rows"]],
            slots=[[str(x) for x in r] for r in obj["slots"]],
            row_removed=[int(x) for x in obj["row_removed"]],
            row_cleared=[bool(x) for x in obj["row_cleared"]],
            sp_taken_by=None if obj["sp_taken_by"] is None else int(obj["sp_taken_by"]),
            piles={str(k): [str(c) for c in v] for k, v in obj["piles"].items()},
            out_of_game=[str(c) for c in obj["out_of_game"]],
            ge_pile=[str(c) for c in obj["ge_pile"]],
            ge_display=[str(c) for c in obj["ge_display"]],
            draft=DraftState.from_json(obj["draft"]),
            constantinople=[[int(x[0]), str(x[1])] for x in obj["constantinople"]],
            tiles_left=[int(t) for t in obj["tiles_left"]],
            scoring=None if obj["scoring"] is None else ScoringState.from_json(obj["scoring"]),
            players=[PlayerState.from_json(p) for p in obj["players"]],
            final=None if final is None else [dict(r, breakdown=dict(r["breakdown"])) for r in final],
            history=[[int(h[0]), str(h[1])] for h in obj["history"]],
        )
