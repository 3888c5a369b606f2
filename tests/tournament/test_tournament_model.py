"""Event configuration and registration refuse bad input with a clear sentence."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tournament.model import EventConfig, Format, Registration, Stage, TournamentError


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"name": " "}, "needs a name"),
        ({"family": "chess"}, "game family"),
        ({"rounds": 0}, "between 1 and 30 rounds"),
        ({"table_size": 7}, "between 2 and 6"),
        ({"table_sizes": (3, 5)}, "must include the chosen size"),
        ({"table_size": 6}, "no points scale for 6-player"),
        ({"points_per_place": {3: (6, 3, 1), 4: (6, 5, 3), 5: (6, 5, 3, 2, 1)}}, "needs exactly 4"),
        (
            {"points_per_place": {3: (1, 3, 6), 4: (6, 5, 3, 1), 5: (6, 5, 3, 2, 1)}},
            "must not give a later place",
        ),
        ({"boards": ()}, "at least one board"),
        ({"boards": ("usa", "usa")}, "listed twice"),
        ({"ranking": ("wins", "wins")}, "listed twice"),
        ({"ranking": ("luck",)}, "Unknown tie-break"),
        ({"ranking": ()}, "at least one ranking criterion"),
        ({"format": "knockout"}, "Unknown format"),
        ({"format": "swiss_final"}, "final table seats"),
        ({"final_size": 4}, "no final table"),
        ({"format": "groups_final", "final_size": 4, "groups": 1}, "at least 2 groups"),
        ({"format": "groups_final", "final_size": 5, "groups": 2}, "same number of players from each"),
    ],
)
def test_bad_configs_are_refused_with_a_sentence(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(TournamentError) as err:
        EventConfig(**{"name": "Cup", "family": "ttr", "boards": ("usa",), **settings})
    assert err.value.code == "bad_config"
    assert words in err.value.message


def test_a_good_config_gets_default_table_sizes_and_stages() -> None:
    config = EventConfig(
        family="ttr", boards=("usa",), name="Cup", format=Format.SWISS_FINAL, rounds=3, final_size=4
    )
    assert config.table_sizes == (3, 4, 5)
    assert [config.stage_of(r) for r in (1, 3, 4)] == [Stage.SWISS, Stage.SWISS, Stage.FINAL]
    with pytest.raises(TournamentError):
        config.stage_of(5)


def test_registration_refuses_duplicates_and_unknown_drops() -> None:
    with pytest.raises(TournamentError):
        Registration(("discord:1", "discord:1"))
    registration = Registration(("discord:1", "discord:2"))
    with pytest.raises(TournamentError):
        registration.drop("discord:9")
    dropped = registration.drop("discord:2")
    assert dropped.active == ("discord:1",)
    assert registration.active == ("discord:1", "discord:2")  # the original is unchanged
    with pytest.raises(TournamentError):
        dropped.drop("discord:2")
