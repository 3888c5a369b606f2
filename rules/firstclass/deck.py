"""The card data of one First Class game: the immutable :class:`Deck`, built from the config and
the data files (:func:`build_deck`) or loaded from a stored game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.firstclass import cards as C
from rules.firstclass.effects import Station, parse_stations


@dataclass(frozen=True)
class Deck:
    """Immutable card data for one game: Action cards, Game End cards, tiles, mail cars, board route."""

    cards: dict[str, C.ActionCard]
    game_end: dict[str, C.GameEndCard]
    tiles: tuple[C.LocoTile, ...]
    mails: dict[int, C.MailCar]
    board_route: str
    provisional: tuple[str, ...]
    label: str
    # where the Action cards come from, as facts: (sets, file path; "" = the Conductor open deck)
    sources: tuple[tuple[tuple[str, ...], str], ...] = ()
    _route_cache: dict[tuple[str, ...], tuple[Station, ...]] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [c.to_json() for c in self.cards.values()],
            "game_end": [g.to_json() for g in self.game_end.values()],
            "tiles": [t.to_json() for t in self.tiles],
            "mails": [m.to_json() for m in self.mails.values()],
            "board_route": self.board_route,
            "provisional": list(self.provisional),
            "label": self.label,
            # only when known: decks stored before the sources were kept save exactly as they were
            **({"sources": [[list(sets), path] for sets, path in self.sources]} if self.sources else {}),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Deck:
        return cls(
            cards={c["id"]: C.ActionCard(**c) for c in obj["cards"]},
            game_end={g["id"]: C.GameEndCard(**g) for g in obj["game_end"]},
            tiles=tuple(
                C.LocoTile(t["order"], t["value"], tuple(t["upgrades"]), t["provisional"])
                for t in obj["tiles"]
            ),
            mails={m["slot"]: C.MailCar(m["slot"], m["bonus"], m["provisional"]) for m in obj["mails"]},
            board_route=obj["board_route"],
            provisional=tuple(obj["provisional"]),
            label=obj["label"],
            sources=tuple(
                (tuple(str(x) for x in sets), str(path)) for sets, path in obj.get("sources") or ()
            ),
        )

    def route(self, route_cards: list[str]) -> tuple[Station, ...]:
        """The stations in travel order: the 3 pre-printed ones, then each route card's stations."""
        key = tuple(route_cards)
        got = self._route_cache.get(key)
        if got is None:
            stations = list(parse_stations(self.board_route))
            for cid in route_cards:
                stations.extend(parse_stations(self.cards[cid].route_stations))
            got = tuple(stations)
            self._route_cache[key] = got
        return got


def build_deck(cfg: dict[str, Any], players: int) -> Deck:
    """Load and validate the card data the config asks for; raises IllegalAction("invalid_deck")."""
    sets = ["X", *cfg["modules"]]
    try:
        # A group's file supplies every chosen set it holds; our open deck only the sets it lacks,
        # and the label names each source.
        edition = int(cfg.get("open_deck", 1))
        sources = C.assemble_action_cards(cfg["modules"], cfg["deck"], edition=edition)
        cards = sources.cards
        ge = (
            C.game_end_cards_from_rows(C.read_csv_path(cfg["game_end_deck"]), cfg["game_end_deck"])
            if cfg["game_end_deck"]
            else C.open_game_end_cards(edition)
        )
        tiles = (
            C.locomotive_tiles(C.read_csv_path(cfg["tiles_file"]), cfg["tiles_file"])
            if cfg["tiles_file"]
            else C.locomotive_tiles()
        )
        mails = (
            C.mail_cars(C.read_csv_path(cfg["mail_cars_file"]), cfg["mail_cars_file"])
            if cfg["mail_cars_file"]
            else C.mail_cars()
        )
        board, prov_board = (
            C.board_route(C.read_csv_path(cfg["board_route_file"]), cfg["board_route_file"])
            if cfg["board_route_file"]
            else C.board_route()
        )
    except C.CardFileError as exc:
        reading = exc.problem.code in ("card_file_missing", "card_file_unreadable")
        english = (
            f"Cannot read the card file: {exc}."
            if reading
            else f"The card file is not in the documented format: {exc}."
        )
        raise C.InvalidCards(english, [exc.problem]) from None
    except ValueError as exc:  # any other unreadable value: still a refusal, never a crash
        raise C.InvalidCards(
            f"The card file is not in the documented format: {exc}.",
            [C.Problem("card_file_format", str(exc))],
        ) from None
    errors = (
        C.validate_action_cards(cards, sets)
        + C.validate_game_end_cards(ge)
        + C.validate_locomotive_tiles(tiles)
        + C.validate_mail_cars(mails)
        + C.validate_board_route(board)
        + sources.shortfall
    )
    if errors:
        raise C.InvalidCards("The card list is not valid: " + "; ".join(errors) + ".", errors)
    provisional = [f"player board {p}" for p in prov_board]
    provisional += [f"Locomotive tile {t.order} value {t.value}" for t in tiles if t.provisional]
    provisional += [f"mail car {m.slot} bonus {m.bonus}" for m in mails if m.provisional]
    if players == 3 and any(t.provisional for t in tiles):
        provisional.append("3-player Locomotive tiles 1-6 (4 with 2 upgrades, 2 with 1)")
    return Deck(
        cards={c.id: c for c in cards},
        game_end={g.id: g for g in ge},
        tiles=tuple(tiles),
        mails={m.slot: m for m in mails},
        board_route=board,
        provisional=tuple(provisional),
        label=sources.label,
        sources=sources.origins,
    )
