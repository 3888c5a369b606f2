"""Setting specs shared by every game: a game's own settings described as data, so a front end can
offer and parse them without knowing the game (the registry and every game import this; it imports
no game, which keeps the registry and the games free of import cycles)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction

SETTING_KINDS = ("bool", "int", "choice", "file")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class SettingSpec:
    """One game setting a front end may offer, described as data so it can offer it generically.

    ``key`` is the config key, ``label`` a short name for people, ``kind`` one of
    :data:`SETTING_KINDS` (``file``: a path to a data file the game loads), ``default`` the value
    used when nobody chooses, ``choices`` the allowed values (empty: any value of the kind),
    ``multiple`` whether several choices may be taken at once (the value is then a tuple), and
    ``help`` one sentence on what it changes (and which open question it answers). An ``int``
    setting may bound its values with ``minimum`` and ``maximum`` (inclusive).
    """

    key: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    multiple: bool = False
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> Any:
        """The value written as ``text`` (as typed after ``--set key=``); IllegalAction when it is
        not one this setting takes."""
        raw = text.strip()
        if self.multiple:
            parts = [p for p in raw.replace(",", " ").split() if p]
            return tuple(self._one(p) for p in parts)
        return self._one(raw)

    def _one(self, raw: str) -> Any:
        value: Any
        if self.kind == "bool":
            if raw.lower() in _TRUE:
                value = True
            elif raw.lower() in _FALSE:
                value = False
            else:
                raise IllegalAction("bad_setting", f"Setting {self.key} is true or false, not {raw!r}.")
        elif self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise IllegalAction(
                    "bad_setting", f"Setting {self.key} is a whole number, not {raw!r}."
                ) from None
            self.check_range(value)
        elif self.kind == "file":
            if not raw:
                raise IllegalAction("bad_setting", f"Setting {self.key} needs the path of a file.")
            value = raw
        else:
            folded = {str(c).lower(): c for c in self.choices}
            value = folded.get(raw.lower(), raw)
        if self.choices and value not in self.choices:
            allowed = ", ".join(_show(c) for c in self.choices)
            raise IllegalAction(
                "bad_setting", f"Setting {self.key} ({self.label}) takes {allowed}; not {raw!r}."
            )
        return value

    def check_range(self, value: int) -> None:
        """IllegalAction (``setting_out_of_range``) when ``value`` lies outside the setting's bounds."""
        low = self.minimum if self.minimum is not None else value
        high = self.maximum if self.maximum is not None else value
        if not low <= value <= high:
            raise IllegalAction(
                "setting_out_of_range",
                f"Setting {self.key} takes a whole number from {low} to {high}, not {value}.",
                setting=self.key,
                minimum=low,
                maximum=high,
            )


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(_show, value)) or "none"
    return str(value)


def show_setting_value(value: Any) -> str:
    """A setting's value as it would be typed after ``--set key=`` (``true``, ``A,O``, ``3``)."""
    return _show(value)
