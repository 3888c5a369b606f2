"""The web pages' settings (``.env.example``): off unless asked, one flag turns them on, and a
setting that cannot be read is refused with a sentence naming it."""

from __future__ import annotations

import pytest

from bot.web.settings import WebSettingError, WebSettings


def test_pages_are_off_by_default_and_one_flag_turns_them_on() -> None:
    assert WebSettings.from_env({}) == WebSettings(False, "127.0.0.1", 8080, "")
    assert WebSettings.from_env({"CONDUCTOR_WEB": "on"}).enabled
    assert WebSettings.from_env({"CONDUCTOR_WEB": "off"}, force_on=True).enabled  # conductor run --web
    on = WebSettings.from_env(
        {"CONDUCTOR_WEB": "1", "CONDUCTOR_WEB_HOST": "0.0.0.0", "CONDUCTOR_WEB_PORT": "9000"}
    )
    assert (on.host, on.port, on.public_url) == ("0.0.0.0", 9000, "http://0.0.0.0:9000")
    behind = WebSettings.from_env({"CONDUCTOR_WEB_URL": "https://games.example.org/"})
    assert behind.public_url == "https://games.example.org" and not behind.enabled


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"CONDUCTOR_WEB": "maybe"}, "CONDUCTOR_WEB='maybe' is neither on nor off."),
        ({"CONDUCTOR_WEB_PORT": "80a"}, "CONDUCTOR_WEB_PORT='80a' is not a port number"),
        ({"CONDUCTOR_WEB_PORT": "70000"}, "CONDUCTOR_WEB_PORT='70000' is not a port number"),
        ({"CONDUCTOR_WEB_PORT": "-1"}, "CONDUCTOR_WEB_PORT='-1' is not a port number (0 to 65535"),
        ({"CONDUCTOR_WEB_URL": "games.example.org"}, "must start with http:// or https://"),
    ],
)
def test_a_setting_that_cannot_be_read_is_refused_with_a_sentence(env: dict[str, str], words: str) -> None:
    with pytest.raises(WebSettingError) as refused:
        WebSettings.from_env(env)
    assert words in refused.value.said.text("en")
    assert refused.value.said.text("de") != refused.value.said.text("en")  # in the reader's language


def test_conductor_run_refuses_a_bad_web_setting_before_connecting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("CONDUCTOR_WEB_PORT", "not-a-port")
    assert main(["run", "--env-file", "/nonexistent.env"]) == 2
    assert "CONDUCTOR_WEB_PORT='not-a-port' is not a port number" in capsys.readouterr().err
