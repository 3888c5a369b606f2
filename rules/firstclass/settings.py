"""Config keys, the open rule questions as named settings, and the module registry.

Every open rule question from ``shared/reference/first-class/open_questions.csv`` is a config key
whose default is the documented suggestion, unless the plainest reading of the rulebook text says
otherwise (Q10: the rulebook's coin spending list, usable in a scoring phase, includes buying a Game
End card); the other reading is then kept as a named value of the setting. A module is a registry entry: the letter of its cards
in the data file plus the rule hooks the engine calls for its card kinds (``contract`` for
Module A). Modules whose rules text the project does not have are listed but refuse to start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.errors import IllegalAction

if TYPE_CHECKING:
    from rules.settings import SettingSpec


@dataclass(frozen=True)
class Setting:
    """A named rule setting: config key, default, allowed values and the question it answers."""

    key: str
    default: Any
    allowed: tuple[Any, ...]
    question: str
    meaning: str


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "conductor_start",
        0,
        (0, 1),
        "Q1",
        "space the conductors start on: 0 = the brass plate before car 1 (documented default), 1 = on car 1",
    ),
    Setting(
        "start_player_compensation",
        "relative",
        ("relative",),
        "Q3",
        "compensations are counted clockwise from the player taking the tile and cut off at the player count",
    ),
    Setting(
        "locomotive_tiles_3p",
        "1-6",
        ("1-6",),
        "Q4",
        "with 3 players tiles 1-6 are used (4 with 2 upgrades, 2 with 1) - a guess, marked provisional",
    ),
    Setting(
        "game_end_typing",
        "printed",
        ("printed", "kind"),
        "Q7",
        "which base cards count for a Game End card: its printed type (default) or the card kind",
    ),
    Setting(
        "car_supply",
        "unlimited",
        ("unlimited", "limited"),
        "Q8",
        "railroad car supply: unlimited (default) or the 50 0/1, 24 2/4 and 20 7/12 double-sided cards",
    ),
    Setting(
        "route_clock",
        "ignore",
        ("ignore",),
        "Q9",
        "the clock icon on route cards does nothing in the base game",
    ),
    # The rulebook lists "pay 4 coins to take a Game End card" among the ways to spend coins and says
    # "You may also spend coins during a scoring phase"; open_questions.csv suggested the narrower
    # reading (German FAQ, low confidence), kept here as the value False.
    Setting(
        "buy_game_end_in_scoring",
        True,
        (True, False),
        "Q10",
        "whether Game End cards may also be bought during your scoring step: True (default, the rulebook's "
        "coin spending list, which applies in scoring phases too) or False (only on your own turn, the "
        "German FAQ reading)",
    ),
)
SETTING_KEYS = {s.key: s for s in SETTINGS}
#: The open deck's editions (its card files: rules.firstclass.cards). A new game deals the current one;
#: a game stored before an edition changed keeps the cards it was dealt (they are in its saved state),
#: and ``open_deck`` = 1 deals the first edition again (the golden games replay it byte for byte).
#: Edition 2: module O has contracts. Edition 3: two Game End cards one point lower (G13 locomotive 3 -> 2,
#: G21 conductor 4 -> 3): the first pick of the setup draft decided too many 2-player games and Game
#: End cards were the largest source of the winner's points (docs/first-class-api.md, balance).
OPEN_DECK_EDITIONS = (1, 2, 3)
OPEN_DECK_EDITION = 3
FILE_KEYS = ("deck", "game_end_deck", "tiles_file", "mail_cars_file", "board_route_file")
# "language" is a front end's (the game's public texts and pictures); no rule reads it, it is only kept.
# The AI settings every game shares (rules/ai_settings.py): kept in the config, read by no rule.
# "open_deck": the edition of the Conductor open deck a new game deals (cards.OPEN_DECK_EDITIONS).
OTHER_KEYS = {"modules", "start_player", "language", "ai_think_ms", "takeover_ai", "open_deck", *FILE_KEYS}


@dataclass(frozen=True)
class Module:
    """A card module: its letter in the card data, its name, whether it is playable, and why not.

    ``data_file`` is the packaged card file (rules/firstclass/data) and ``take_hooks`` maps a card
    kind of the module to the engine hook that places the card when it is taken (cards without a
    hook are carried out through the effect language).
    """

    letter: str
    name: str
    playable: bool
    note: str
    data_file: str | None = None
    take_hooks: tuple[tuple[str, str], ...] = ()


MODULES: dict[str, Module] = {
    "A": Module(
        "A",
        "The Contracts",
        True,
        "contracts: a requirement and a bonus, fulfilled on your turn or in a scoring phase",
        "module_A.csv",
        (("contract", "place_contract"),),
    ),
    "O": Module(
        "O",
        "Conductor open extras",
        True,
        "our own 8-per-pile module of contracts, coin, points and choice cards (every module includes "
        "contracts, as the rulebook says), so a pile holds the 40 cards two modules give (the published "
        "second module cannot be played yet)",
        "module_O.csv",
        (("contract", "place_contract"),),
    ),
    "B": Module("B", "Celebrities and Postcards", False, "its rules text is not available to the project"),
    "C": Module("C", "First Class Murder", False, "its rules text is not available to the project"),
    "D": Module("D", "Passengers and Luggage", False, "its rules text is not available to the project"),
    "E": Module("E", "Switches and Mechanics", False, "its rules text is not available to the project"),
    "F": Module("F", "Storage and Factory", False, "its rules text is only partly known"),
    "G": Module("G", "The Magician", False, "its rules text is only partly known"),
}
DEFAULT_MODULES = ("A", "O")


def take_hook(modules: list[str], kind: str) -> str | None:
    """The engine hook for taking a card of ``kind`` under the chosen modules, if any."""
    for letter in modules:
        for hook_kind, hook in MODULES[letter].take_hooks:
            if hook_kind == kind:
                return hook
    return None


def resolve_config(config: dict[str, Any]) -> dict[str, Any]:
    """The full, checked config with every default filled in; raises IllegalAction with a sentence."""
    unknown = sorted(set(config) - set(SETTING_KEYS) - OTHER_KEYS)
    if unknown:
        raise IllegalAction("bad_config", f"Unknown First Class setting(s): {', '.join(unknown)}.")
    out: dict[str, Any] = {}
    for s in SETTINGS:
        value = config.get(s.key, s.default)
        if value not in s.allowed:
            allowed = ", ".join(repr(a) for a in s.allowed)
            raise IllegalAction(
                "bad_config", f"Setting {s.key} ({s.question}) must be one of {allowed}, not {value!r}."
            )
        out[s.key] = value
    modules = config.get("modules", list(DEFAULT_MODULES))
    if isinstance(modules, str):
        modules = [m for m in modules.replace(",", " ").split() if m]
    if not isinstance(modules, (list, tuple)) or not all(isinstance(m, str) for m in modules):
        raise IllegalAction(
            "bad_config", "Setting modules must be a list of module letters such as ['A', 'O']."
        )
    modules = [m.upper() for m in modules]
    for m in modules:
        if m not in MODULES:
            raise IllegalAction(
                "bad_config", f"There is no First Class module {m!r}; modules are A to G (and O, ours)."
            )
        if not MODULES[m].playable:
            mod = MODULES[m]
            raise IllegalAction(
                "module_not_playable",
                f"Module {m} ({mod.name}) is listed but not playable: {mod.note}. Playable modules: A and O.",
            )
    if len(set(modules)) != len(modules):
        raise IllegalAction("bad_config", "Each module may be chosen only once.")
    out["modules"] = modules
    for key in FILE_KEYS:
        value = config.get(key)
        if value is not None and not isinstance(value, str):
            raise IllegalAction("bad_config", f"Setting {key} must be a path to a CSV file.")
        out[key] = value
    sp = config.get("start_player", 0)
    if not isinstance(sp, int):
        raise IllegalAction("bad_config", "Setting start_player must be a seat number.")
    out["start_player"] = sp
    edition = config.get("open_deck", OPEN_DECK_EDITION)
    if isinstance(edition, bool) or edition not in OPEN_DECK_EDITIONS:
        editions = ", ".join(map(str, OPEN_DECK_EDITIONS))
        raise IllegalAction(
            "bad_config", f"Setting open_deck must be an edition of the open deck: {editions}."
        )
    if edition != 1:
        # a game of the first edition saves its config as it always did: no key means edition 1
        out["open_deck"] = edition
    if isinstance(config.get("language"), str):
        out["language"] = config["language"]
    # Kept for the search AI (its thinking time) and the bot (which AI takes a seat over).
    for key in ("ai_think_ms", "takeover_ai"):
        if key in config:
            out[key] = config[key]
    return out


# Short names for people; the question and meaning above stay the one place that explains them.
LABELS = {
    "conductor_start": "Conductors start on",
    "start_player_compensation": "Start Player compensation",
    "locomotive_tiles_3p": "Locomotive tiles with 3 players",
    "game_end_typing": "Game End card counting",
    "car_supply": "Railroad car supply",
    "route_clock": "Clock icon on route cards",
    "buy_game_end_in_scoring": "Buy Game End cards in scoring",
}
FILE_LABELS = {
    "deck": ("Action cards file", "CSV of Action cards (base X and module cards) in the template format"),
    "game_end_deck": ("Game End cards file", "CSV of the 21 Game End cards"),
    "tiles_file": ("Locomotive tiles file", "CSV of the 8 Locomotive tiles"),
    "mail_cars_file": ("Mail cars file", "CSV of the 4 mail cars"),
    "board_route_file": ("Player board route file", "CSV of the player board's pre-printed stations"),
}


def playable_modules() -> tuple[str, ...]:
    """The letters of the modules the engine can play, in registry order."""
    return tuple(m.letter for m in MODULES.values() if m.playable)


def setting_specs() -> tuple[SettingSpec, ...]:
    """Every First Class setting as typed data for front ends (``GameSpec.settings``): the
    modules among the playable ones, each open rule question with its documented default, and
    the card files a group that owns the game may load."""
    from rules.settings import SettingSpec

    modules = ", ".join(f"{m.letter} = {m.name}" for m in MODULES.values() if m.playable)
    out = [
        SettingSpec(
            "modules",
            "Modules",
            "choice",
            DEFAULT_MODULES,
            playable_modules(),
            f"modules played with the base cards ({modules}); B-G are listed but not playable",
            multiple=True,
        )
    ]
    for s in SETTINGS:
        kind = "bool" if isinstance(s.default, bool) else "int" if isinstance(s.default, int) else "choice"
        out.append(
            SettingSpec(
                s.key, LABELS.get(s.key, s.key), kind, s.default, s.allowed, f"{s.question}: {s.meaning}"
            )
        )
    for key in FILE_KEYS:
        label, help_text = FILE_LABELS[key]
        out.append(SettingSpec(key, label, "file", None, (), help_text))
    return tuple(out)
