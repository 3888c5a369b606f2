"""The web pages' settings: whether the bot's process serves them, where, and the public address
that links point to (``CONDUCTOR_WEB``, ``CONDUCTOR_WEB_HOST``, ``CONDUCTOR_WEB_PORT``,
``CONDUCTOR_WEB_URL``; see ``.env.example``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lang import M, Msg

ON = ("1", "on", "yes", "true")
OFF = ("", "0", "off", "no", "false")


class WebSettingError(ValueError):
    """A web setting that cannot be read; ``said`` says which and why, in any reader's language."""

    def __init__(self, said: Msg) -> None:
        super().__init__(said.text())
        self.said = said


@dataclass(frozen=True)
class WebSettings:
    """``enabled``: the bot's process serves the pages on ``host``:``port`` (0: any free port,
    the server says which); ``base_url``: the address people reach them at (behind a proxy, the
    proxy's), without a trailing slash."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str = ""

    @property
    def public_url(self) -> str:
        """Where links point: ``base_url``, else the server's own address."""
        return self.base_url or f"http://{self.host}:{self.port}"

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, force_on: bool = False) -> WebSettings:
        """The settings from the environment (``force_on``: ``conductor run --web``)."""
        flag = env.get("CONDUCTOR_WEB", "").strip().lower()
        if flag not in ON + OFF:
            raise WebSettingError(M("CONDUCTOR_WEB={value} is neither on nor off.", value=repr(flag)))
        port_text = env.get("CONDUCTOR_WEB_PORT", "").strip() or "8080"
        if not port_text.isdigit() or not 0 <= int(port_text) < 65536:
            raise WebSettingError(
                M(
                    "CONDUCTOR_WEB_PORT={value} is not a port number (0 to 65535; 0: any free port).",
                    value=repr(port_text),
                )
            )
        base = env.get("CONDUCTOR_WEB_URL", "").strip().rstrip("/")
        if base and not base.startswith(("http://", "https://")):
            raise WebSettingError(
                M("CONDUCTOR_WEB_URL={value} must start with http:// or https://.", value=repr(base))
            )
        return cls(
            enabled=force_on or flag in ON,
            host=env.get("CONDUCTOR_WEB_HOST", "").strip() or "127.0.0.1",
            port=int(port_text),
            base_url=base,
        )
