"""A fake Discord (REST + gateway) on 127.0.0.1 that drives the *real* discord.py client.

The fake is an aiohttp server with the REST API under ``/api/v10`` and a gateway websocket at
``/gateway``. The real client is pointed at it by patching the two attributes documented in
``/work/shared/reference/DISCORD.md``: ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (see :meth:`FakeDiscord.install`).

Quick start (pytest, with the fixtures from ``tests/e2e/conftest.py``)::

    async def test_ping(fake_discord, run_bot):
        bot = await run_bot(lambda: MyBot(guild_ready_timeout=0.05))   # started and ready
        await fake_discord.sync_commands_done()                         # optional: wait for tree.sync()
        it = await fake_discord.slash("ttr new", user=fake_discord.alice, board="usa")
        await it.wait_ack()                                             # first response (callback)
        msg = await it.wait_message()                                   # the message the user sees
        assert msg.attachments[0].filename == "board.png" and not msg.ephemeral
        click = await fake_discord.click(msg, label="Draw", user=fake_discord.bob)
        await click.wait_ack()
        assert "hand" not in fake_discord.public_text()                 # leak scan

The world
    A default guild ``fake.guild`` ("Test Guild") with text channel ``fake.general`` and members
    ``fake.alice``, ``fake.bob``, ``fake.carol`` plus the bot user ``fake.bot_user`` (its id is also the
    application id). Add more with :meth:`FakeDiscord.add_user`, :meth:`FakeDiscord.add_channel`,
    :meth:`FakeDiscord.add_guild`. Everything is sent in ``GUILD_CREATE`` on IDENTIFY.

Injecting interactions (each gets a fresh id and token; all return an :class:`InteractionHandle`)
    ``await fake.slash("group sub cmd", user=..., channel=..., **options)``  chat-input command (type 2)
    ``await fake.autocomplete("cmd sub", focused="city", value="Chi", **other_options)`` (type 4)
    ``await fake.click(message, custom_id=... | label=..., user=...)``  button (type 3, component 2)
    ``await fake.select(message, custom_id, ["a", "b"], user=...)``  string select (component 3)
    ``await fake.submit_modal(handle_that_opened_it, {"field": "value"}, user=...)``  modal (type 5)
    ``await fake.forge_component(message, "bad:id", component_type=3, values=[...])``  a forged click
    ``fake.build_interaction(kind, data, user, channel, message)`` + ``await fake.inject(h)``  raw
    Option types are taken from the synced command schema when available, else inferred from the
    Python value (str, int, float, bool, :class:`FakeUser`, :class:`FakeChannel`, or :class:`Opt`).
    With a synced schema, unknown subcommands/options and missing required options raise ValueError
    (Discord would never send them); ``strict_options=True`` also checks choices and min/max.

InteractionHandle
    ``await h.wait_ack()`` first callback request; ``await h.wait_message()`` first visible message
    (a type-5 defer's loading message counts only once it is filled); ``await h.wait_choices()`` the
    autocomplete choices; ``h.original``/``h.followups``/``h.messages``; ``h.requests``; ``h.modal``.

Queries
    ``fake.requests`` (every REST request, a :class:`RecordedRequest`), ``fake.find_requests(...)``,
    ``fake.messages_in(channel)``, ``fake.message(id)``, ``fake.responses_to(handle)``,
    ``fake.public_payloads()`` / ``fake.public_text()`` (everything non-ephemeral the bot sent, for
    leak scans), ``fake.ephemeral_payloads()``, ``fake.commands(guild=None)``, ``fake.threads``,
    ``await fake.wait_for_request(predicate, timeout)``, ``await fake.wait_for_message(...)``,
    ``await fake.wait_until(check, timeout)`` (any condition), ``await fake.settle()`` (no request for
    50 ms: the bot is done reacting).

Rules enforced (each violation is answered like Discord does *and* recorded in ``fake.failures``;
the ``fake_discord`` fixture fails the test at teardown unless the test consumed them with
``fake.take_failures(kind)``):
    ``unknown_route``  any REST route the fake does not implement (404)
    ``late_ack``       first callback after ``response_deadline`` s (default 3.0; 404 code 10062)
    ``double_ack``     a second callback (400 code 40060)
    ``expired_token``  webhook use after ``token_lifetime`` (15 min of the fake clock; 401 code 50027)
    ``ephemeral_ignored`` first follow-up after a PUBLIC type-5 defer asks for ephemeral: like Discord,
                       it fills the loading message and stays public (catches "public defer, ephemeral
                       follow-up" leaks). The reverse (ephemeral defer, follow-up without the flag) is
                       harmless and only visible as ``request.requested_ephemeral=False, ephemeral=True``.
    ``followup_before_ack``, ``unknown_interaction``, ``invalid_callback``, ``forbidden``, ``invalid_form_body``
                       (Discord limits: content 2000, 10 embeds, 5 rows x 5, custom_id 100, 25
                       choices/options, ...), ``file_too_large``, ``not_found`` (unknown channel/message).
    ``client_error``   discord.py logged an ERROR ("Ignoring exception in command/view/modal ..."): an
                       exception escaped a handler of the bot under test (``fail_on_client_errors=False``
                       turns this off).

Running bots
    :class:`BotRunner` (fixtures ``bot_runner`` / ``run_bot``): ``bot = await runner.start(factory)``
    runs ``asyncio.create_task(bot.start(token))`` and waits for ``is_ready()`` (it lowers
    ``guild_ready_timeout`` to 0.05 s); ``await runner.restart(factory)`` closes the client and starts a
    new one against the same fake (old messages and their buttons stay); ``await runner.close()``.

Clock and faults
    ``fake.clock.advance(seconds)`` moves the fake clock (token lifetime, deadline, snowflakes).
    ``fake.fail_next("POST", "/channels/*/messages", status=429, retry_after=0.01)`` injects a
    rate limit (or a 500, ``status=500``) once on a route glob (path after ``/api/v10``), to test
    retries. discord.py retries a 429 after ``retry_after`` and a 5xx after 1 s (1 + 2*attempt).
    ``fake.fail_next_first_reply("late" | "rate_limited")`` makes the next interaction's first reply
    fail as on Discord (404 Unknown interaction, after a 429 for ``rate_limited``), not recorded as
    the bot's failure: the player's client shows "This interaction failed".
    In pytest, configure the fake with ``@pytest.mark.fake_discord(response_deadline=0.2, ...)``.

Gateway
    HELLO, HEARTBEAT/ACK, IDENTIFY -> READY + GUILD_CREATE, REQUEST_GUILD_MEMBERS -> chunk, RESUME ->
    INVALID_SESSION. A client that identifies with ``shard: [id, count]`` gets only the guilds that
    shard owns (``(guild_id >> 22) % count == id``) and their events; direct messages go to shard 0
    (``add_guild(name, shard=(id, count))`` makes a guild of a given shard). A message sent with a
    nonce and ``enforce_nonce`` is created once: the same nonce again within ``NONCE_MINUTES`` returns
    that message (``fake.nonce_repeats`` counts them). Bot messages produce MESSAGE_CREATE/UPDATE/DELETE (if the intents ask for them),
    threads produce THREAD_CREATE/UPDATE/DELETE. ``await fake.dispatch(event, data)`` sends anything.
    ``await fake.user_message(channel, user, "text")`` injects a user message.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import fnmatch
import functools
import itertools
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import yarl
from aiohttp import web

__all__ = [
    "BotRunner",
    "FakeAttachment",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeMessage",
    "FakeUser",
    "Failure",
    "InteractionHandle",
    "Opt",
    "RecordedRequest",
    "UploadedFile",
]

T = TypeVar("T")
Json = dict[str, Any]

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
ALL_PERMISSIONS = "2248473465835073"
# How long a ``wait_*`` helper (and a client start) waits for its event before failing the test.
# A guard against a hang, never a pause: waits return as soon as the event happens. Generous, so
# that a busy machine (tests/stress.sh) is not mistaken for a hang; a test that expects nothing
# to happen passes its own short timeout.
HANG_GUARD = 120.0
JOINED_AT = "2025-01-01T00:00:00+00:00"
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_GUILDS = 1 << 0

# callback types
CB_MESSAGE = 4
CB_DEFER = 5
CB_DEFER_UPDATE = 6
CB_UPDATE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9

# interaction types
IT_COMMAND = 2
IT_COMPONENT = 3
IT_AUTOCOMPLETE = 4
IT_MODAL = 5


class FakeDiscordTimeout(AssertionError):
    """Raised when a ``wait_*`` helper times out (an AssertionError so pytest shows it plainly)."""


# --------------------------------------------------------------------------------------------- world


@dataclass
class FakeUser:
    """A Discord user (and, in guilds, a member)."""

    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the language of the person's Discord client (sent as ``locale``)

    def payload(self) -> Json:
        """The user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
        }

    def member_payload(self, *, with_permissions: bool = False) -> Json:
        """The guild member object (with ``user``)."""
        data: Json = {
            "user": self.payload(),
            "roles": [],
            "joined_at": JOINED_AT,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }
        if with_permissions:
            data["permissions"] = ALL_PERMISSIONS
        return data

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"


@dataclass
class FakeChannel:
    """A channel: guild text (0), DM (1), public thread (11) or private thread (12)."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipients: list[FakeUser] = field(default_factory=list)
    members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    deleted: bool = False
    created_at: str = JOINED_AT

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread (type 10, 11 or 12)."""
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    def payload(self, message_count: int = 0) -> Json:
        """The channel object as Discord returns it."""
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [u.payload() for u in self.recipients],
            }
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
        }
        if self.is_thread:
            data.update(
                {
                    "owner_id": str(self.owner_id),
                    "message_count": message_count,
                    "member_count": len(self.members),
                    "total_message_sent": message_count,
                    "flags": 0,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.created_at,
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": self.created_at,
                    },
                }
            )
        else:
            data["topic"] = None
        return data


@dataclass
class FakeGuild:
    """A guild with its channels (ids) and members (user ids)."""

    id: int
    name: str
    owner_id: int
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"  # the server's language (sent as ``guild_locale``)

    def everyone_role(self) -> Json:
        """The @everyone role (id = guild id)."""
        return {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": ALL_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Opt:
    """An explicitly typed slash-command option value (``Opt(6, user)`` for a user option, ...)."""

    type: int
    value: Any


@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class FakeAttachment:
    """An attachment stored on a message."""

    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)


NONCE_MINUTES = 5
"""How long an enforced nonce is remembered (Discord: "the past few minutes")."""


def _flatten(components: list[Json]) -> Iterable[Json]:
    """Components flattened (rows, containers, sections and their children)."""
    stack = list(reversed(components))
    while stack:
        comp = stack.pop()
        yield comp
        children: list[Json] = list(comp.get("components") or [])
        if "component" in comp:
            children.insert(0, comp["component"])
        if isinstance(comp.get("accessory"), dict):
            children.append(comp["accessory"])
        stack.extend(reversed(children))


@dataclass
class FakeMessage:
    """A message stored by the fake (bot messages, interaction responses, injected user messages)."""

    id: int
    channel_id: int
    author: FakeUser
    guild_id: int | None = None
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    interaction: InteractionHandle | None = None
    webhook_id: int | None = None
    message_reference: Json | None = None
    pinned: bool = False
    deleted: bool = False
    edits: int = 0
    reactions: list[tuple[str, int]] = field(default_factory=list)
    history: list[Json] = field(default_factory=list)
    timestamp: str = JOINED_AT
    edited_timestamp: str | None = None
    nonce: str | None = None  # the enforced nonce it was created with

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking user can see it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is a type-5 "is thinking..." placeholder not filled yet."""
        return bool(self.flags & LOADING)

    @property
    def visible_to(self) -> int | None:
        """The only user who can see it (ephemeral) or ``None`` (everyone)."""
        if self.ephemeral and self.interaction is not None:
            return self.interaction.user.id
        return None

    def iter_components(self) -> Iterable[Json]:
        """All components, flattened (rows, containers, sections and their children)."""
        return _flatten(self.components)

    def posted_custom_ids(self) -> list[str]:
        """Every ``custom_id`` the message had when it was posted (before any edit took them off)."""
        first = self.history[0].get("components") or [] if self.history else self.components
        return [c["custom_id"] for c in _flatten(first) if "custom_id" in c]

    def custom_ids(self) -> list[str]:
        """Every ``custom_id`` on the message."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> Json:
        """The component with this ``custom_id`` or ``label``; raises ``LookupError``."""
        for comp in self.iter_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        raise LookupError(
            f"message {self.id} has no component custom_id={custom_id!r} label={label!r}; "
            f"it has {[(c.get('custom_id'), c.get('label')) for c in self.iter_components() if c.get('type') != 1]}"
        )

    def text(self) -> str:
        """Content plus embed text (titles, descriptions, fields, footers) for easy assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
        for comp in self.iter_components():
            if comp.get("type") == 10:  # components v2 text display
                parts.append(comp.get("content") or "")
        return "\n".join(p for p in parts if p)

    def payload(self, base_url: str) -> Json:
        """The message object as Discord returns it."""
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0 if self.message_reference is None else 19,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": a.size,
                    "url": f"{base_url}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                    "proxy_url": f"{base_url}/attachments/{self.channel_id}/{a.id}/{a.filename}",
                    "content_type": a.content_type,
                    **({"description": a.description} if a.description else {}),
                }
                for a in self.attachments
            ],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction is not None and self.interaction.kind == IT_COMMAND:
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.kind,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass
class RecordedRequest:
    """One REST request received by the fake, with what the fake made of it."""

    seq: int
    method: str
    path: str
    route: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    response: Any = None
    interaction: InteractionHandle | None = None
    message: FakeMessage | None = None
    ephemeral: bool | None = None
    carries_message: bool = False
    requested_ephemeral: bool | None = None
    injected: bool = False
    error: str | None = None

    @property
    def message_data(self) -> Json | None:
        """The message part of the payload (``data`` of a callback, else the body)."""
        if not isinstance(self.json, dict):
            return None
        if self.route.endswith("/callback"):
            data = self.json.get("data")
            return data if isinstance(data, dict) else None
        return self.json

    @property
    def is_public(self) -> bool:
        """Whether this request produced or changed a message everybody can see."""
        return self.carries_message and self.ephemeral is False and self.status < 300

    def __repr__(self) -> str:
        extra = f" files={[f.filename for f in self.files]}" if self.files else ""
        return f"<{self.method} {self.path} -> {self.status} ephemeral={self.ephemeral}{extra}>"


@dataclass
class Failure:
    """A protocol violation or unknown route, recorded so the test fails unless it expected it."""

    kind: str
    detail: str
    request: RecordedRequest | None = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


class FakeClock:
    """Monotonic clock that tests can move forward (token lifetime, deadline, snowflake times)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Monotonic seconds plus the offset."""
        return time.monotonic() + self.offset

    def wall(self) -> float:
        """Unix time plus the offset."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.offset += seconds

    def iso(self) -> str:
        """Current fake time as ISO 8601."""
        return dt.datetime.fromtimestamp(self.wall(), dt.UTC).isoformat()


class InteractionHandle:
    """An injected interaction and everything the bot did with it."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        token: str,
        kind: int,
        payload: Json,
        user: FakeUser,
        channel: FakeChannel,
        message: FakeMessage | None,
    ) -> None:
        self.fake = fake
        self.id = id
        self.token = token
        self.kind = kind
        self.payload = payload
        self.user = user
        self.channel = channel
        self.message = message
        self._edits_before = message.edits if message is not None else 0
        self.created = fake.clock.now()
        self.ack_type: int | None = None
        self.ack_request: RecordedRequest | None = None
        self.invalid = False
        self.original: FakeMessage | None = None
        self.followups: list[FakeMessage] = []
        self.requests: list[RecordedRequest] = []
        self.choices: list[Json] | None = None
        self.modal: Json | None = None

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} kind={self.kind} {self.describe()}>"

    def describe(self) -> str:
        """Short human description: ``/ttr new`` or ``click ttr:1:draw``."""
        data = self.payload.get("data", {})
        if self.kind in (IT_COMMAND, IT_AUTOCOMPLETE):
            names = [data.get("name", "?")]
            opts = data.get("options") or []
            while opts and opts[0].get("type") in (1, 2):
                names.append(opts[0]["name"])
                opts = opts[0].get("options") or []
            return "/" + " ".join(names)
        return f"{'click' if self.kind == IT_COMPONENT else 'modal'} {data.get('custom_id')}"

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.ack_type is not None

    @property
    def deferred(self) -> bool:
        """Whether the first response was a defer (5 or 6)."""
        return self.ack_type in (CB_DEFER, CB_DEFER_UPDATE)

    @property
    def ephemeral(self) -> bool | None:
        """Visibility of the original response message (None if there is none)."""
        return None if self.original is None else self.original.ephemeral

    @property
    def messages(self) -> list[FakeMessage]:
        """Original response (if any, and not a component's message) plus follow-ups."""
        out = []
        if self.original is not None and self.original is not self.message:
            out.append(self.original)
        return out + self.followups

    def expired(self) -> bool:
        """Whether the 15-minute token lifetime has passed on the fake clock."""
        return self.fake.clock.now() - self.created > self.fake.token_lifetime

    async def wait_ack(self, timeout: float = HANG_GUARD) -> RecordedRequest:
        """Wait for the first accepted callback and return it."""
        return await self.fake._wait_until(
            lambda: self.ack_request, timeout, f"acknowledgement of {self.describe()}", self
        )

    async def wait_message(self, timeout: float = HANG_GUARD, *, index: int = 0) -> FakeMessage:
        """Wait for the ``index``-th visible message this interaction produced (filled, not loading).

        For component interactions answered with type 7 (or 6 + edit) this is the updated message.
        """

        def check() -> FakeMessage | None:
            msgs = [m for m in self.messages if not m.loading]
            updated = self.ack_type == CB_UPDATE or (
                self.ack_type == CB_DEFER_UPDATE
                and self.message is not None
                and self.message.edits > self._edits_before
            )
            if not msgs and self.message is not None and self.original is self.message and updated:
                msgs = [self.message]
            return msgs[index] if len(msgs) > index else None

        return await self.fake._wait_until(check, timeout, f"message #{index} of {self.describe()}", self)

    async def wait_choices(self, timeout: float = HANG_GUARD) -> list[Json]:
        """Wait for the autocomplete result (type 8) and return its choices."""
        return await self.fake._wait_until(
            lambda: self.choices, timeout, f"autocomplete choices of {self.describe()}", self
        )

    async def wait_modal(self, timeout: float = HANG_GUARD) -> Json:
        """Wait for a modal (type 9) and return its data."""
        return await self.fake._wait_until(lambda: self.modal, timeout, f"modal of {self.describe()}", self)

    async def wait_for(
        self, predicate: Callable[[RecordedRequest], bool], timeout: float = HANG_GUARD
    ) -> RecordedRequest:
        """Wait for a request of this interaction matching ``predicate``."""

        def check() -> RecordedRequest | None:
            return next((r for r in self.requests if predicate(r)), None)

        return await self.fake._wait_until(check, timeout, f"request of {self.describe()}", self)


# --------------------------------------------------------------------------------------------- server


@dataclass
class _Session:
    ws: web.WebSocketResponse
    seq: int = 0
    intents: int = 0
    identified: bool = False
    shard: tuple[int, int] | None = None  # (shard id, shard count) the client identified as

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session ``guild_id``'s events (None: a direct message, which
        goes to shard 0): ``(guild_id >> 22) % shard_count`` is the shard that owns a server."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id


@dataclass
class _Fault:
    method: str
    glob: str
    status: int
    count: int
    retry_after: float


@dataclass
class Hold:
    """A request held by the fake (see :meth:`FakeDiscord.hold_next`): ``reached`` is set when the
    request arrives; it is answered only after :meth:`release`."""

    method: str
    glob: str
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    request: RecordedRequest | None = None

    def release(self) -> None:
        self.released.set()


@dataclass
class _Ctx:
    params: dict[str, str]
    json: Any
    files: list[UploadedFile]
    query: dict[str, str]
    rec: RecordedRequest


_Handler = Callable[[_Ctx], Awaitable[tuple[int, Any]]]


class _HTTPError(Exception):
    """Raised inside handlers: becomes an error response (and a failure if ``kind`` is set)."""

    def __init__(self, status: int, code: int, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.kind = kind


def _json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    if body is None:
        return web.Response(status=204 if status == 200 else status, headers=headers)
    return web.Response(
        status=status, body=json.dumps(body).encode(), content_type="application/json", headers=headers
    )


class FakeDiscord:
    """The fake Discord server. ``await start()``, ``install(monkeypatch)``, run a bot, ``await stop()``."""

    def __init__(
        self,
        *,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        fail_on_client_errors: bool = True,
        strict_options: bool = False,
    ) -> None:
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.fail_on_client_errors = fail_on_client_errors
        #: also reject option values outside ``choices``/min/max (off: tests may send forged values)
        self.strict_options = strict_options
        self.clock = FakeClock()
        self.requests: list[RecordedRequest] = []
        self.failures: list[Failure] = []
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self._by_token: dict[str, InteractionHandle] = {}
        self._commands: dict[int | None, list[Json]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.command_syncs: list[RecordedRequest] = []
        self._dm_channels: dict[int, int] = {}
        self._faults: list[_Fault] = []
        self._holds: list[Hold] = []
        self._late_replies = 0  # first replies to refuse as too late (fail_next_first_reply)
        self.uploads: dict[int, FakeAttachment] = {}  # files a user attached to a slash command
        self._nonces: dict[str, tuple[int, float]] = {}  # enforced nonce -> (message id, when)
        self.nonce_repeats = 0  # messages not created again because their nonce was seen
        self._sessions: list[_Session] = []
        self._waiters: list[asyncio.Event] = []
        self._seq = itertools.count(1)
        self._snow_counter = itertools.count(1)
        self._token_counter = itertools.count(1)
        self._routes: list[tuple[str, re.Pattern[str], str, _Handler]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._undo: list[Callable[[], None]] = []
        self._register_routes()

        self.bot_user = self.add_user("conductor-bot", bot=True)
        self.application_id = self.bot_user.id
        self.alice = self.add_user("alice")
        self.bob = self.add_user("bob")
        self.carol = self.add_user("carol")
        self.guild = self.add_guild("Test Guild", owner=self.alice)
        self.general = self.add_channel(self.guild, "general")

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> yarl.URL:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def start(self) -> FakeDiscord:
        """Start the server on an ephemeral port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._outside_api)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        """Close gateway sessions and the server, and undo :meth:`install` if done without monkeypatch."""
        for session in list(self._sessions):
            with contextlib.suppress(Exception):
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.install()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def install(self, monkeypatch: Any | None = None) -> None:
        """Point discord.py at this fake (``Route.BASE`` and ``DEFAULT_GATEWAY``).

        With a pytest ``monkeypatch`` the patches are undone by it; otherwise :meth:`stop` undoes them.
        Raises ``RuntimeError`` if discord.py no longer has the patch points.
        """
        import discord.gateway
        import discord.http

        check_patch_points()
        targets = [
            (discord.http.Route, "BASE", self.api_base),
            (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", self.gateway_url),
        ]
        if self.fail_on_client_errors:
            handler = _ClientErrorHandler(self)
            logger = logging.getLogger("discord")
            logger.addHandler(handler)
            self._undo.append(lambda: logger.removeHandler(handler))
        for obj, name, value in targets:
            if monkeypatch is not None:
                monkeypatch.setattr(obj, name, value)
            else:
                old = getattr(obj, name)
                setattr(obj, name, value)
                self._undo.append(functools.partial(setattr, obj, name, old))

    # ------------------------------------------------------------------ world building

    def snowflake(self) -> int:
        """A fresh, increasing snowflake whose timestamp is the fake clock's now."""
        ms = int(self.clock.wall() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._snow_counter) & 0x3FFFFF)

    def add_user(self, name: str, *, bot: bool = False, guild: FakeGuild | None = None) -> FakeUser:
        """Create a user; it joins ``guild`` (default: the default guild, if it exists yet)."""
        user = FakeUser(self.snowflake(), name, bot)
        self.users[user.id] = user
        target = guild or getattr(self, "guild", None)
        if target is not None:
            target.member_ids.append(user.id)
        return user

    def add_guild(
        self, name: str, *, owner: FakeUser | None = None, shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """Create a guild with all existing users (bot included) as members. ``shard=(id, count)``:
        an id that shard ``id`` of ``count`` owns (``(guild_id >> 22) % count == id``)."""
        gid = self.snowflake()
        if shard is not None:
            wanted, count = shard
            stamp = gid >> 22
            gid = ((stamp - (stamp - wanted) % count) << 22) | (gid & 0x3FFFFF)
        guild = FakeGuild(gid, name, (owner or self.bot_user).id, member_ids=list(self.users))
        self.guilds[guild.id] = guild
        return guild

    def add_channel(
        self, guild: FakeGuild | None = None, name: str = "channel", *, type: int = 0
    ) -> FakeChannel:
        """Create a text channel (or another type) in ``guild`` (default guild)."""
        guild = guild or self.guild
        chan = FakeChannel(self.snowflake(), name, type, guild.id, created_at=self.clock.iso())
        self.channels[chan.id] = chan
        guild.channel_ids.append(chan.id)
        return chan

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        if user.id not in self._dm_channels:
            chan = FakeChannel(self.snowflake(), "", 1, None, recipients=[user])
            self.channels[chan.id] = chan
            self._dm_channels[user.id] = chan.id
        return self.channels[self._dm_channels[user.id]]

    @property
    def threads(self) -> list[FakeChannel]:
        """All threads created so far (including deleted ones, see ``.deleted``)."""
        return [c for c in self.channels.values() if c.is_thread]

    def guild_create_payload(self, guild: FakeGuild) -> Json:
        """The ``GUILD_CREATE`` data for ``guild``."""
        chans = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "roles": [guild.everyone_role()],
            "members": [self.users[u].member_payload() for u in guild.member_ids],
            "channels": [c.payload() for c in chans if not c.is_thread],
            "threads": [self._channel_payload(c) for c in chans if c.is_thread and not c.archived],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(guild.member_ids),
            "large": False,
            "joined_at": JOINED_AT,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": guild.preferred_locale,
            "premium_tier": 0,
            "system_channel_id": None,
            "afk_channel_id": None,
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "default_message_notifications": 0,
            "nsfw_level": 0,
        }

    def _channel_payload(self, chan: FakeChannel) -> Json:
        return chan.payload(sum(1 for m in self.messages.values() if m.channel_id == chan.id))

    # ------------------------------------------------------------------ queries

    def message(self, message_id: int | str) -> FakeMessage:
        """The stored message with this id (``KeyError`` if unknown)."""
        return self.messages[int(message_id)]

    def messages_in(
        self,
        channel: FakeChannel | int | None = None,
        *,
        ephemeral: bool | None = None,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages in a channel (default ``general``), oldest first; filter on ephemerality."""
        cid = _id(channel) if channel is not None else self.general.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid
            and (include_deleted or not m.deleted)
            and (ephemeral is None or m.ephemeral == ephemeral)
        ]

    def messages_seen_by(self, user: FakeUser, channel: FakeChannel | int | None = None) -> list[FakeMessage]:
        """Messages ``user`` can see in the channel (public ones and their own ephemeral ones)."""
        return [m for m in self.messages_in(channel) if m.visible_to in (None, user.id)]

    def last_message(self, channel: FakeChannel | int | None = None) -> FakeMessage:
        """The newest non-deleted message in the channel (default ``general``)."""
        msgs = self.messages_in(channel)
        if not msgs:
            raise LookupError(f"no messages in channel {channel}")
        return msgs[-1]

    def responses_to(self, interaction: InteractionHandle) -> list[RecordedRequest]:
        """Every request made with this interaction's id or token (callback, follow-ups, edits)."""
        return list(interaction.requests)

    def find_requests(
        self, method: str | None = None, path: str | None = None, *, route: str | None = None
    ) -> list[RecordedRequest]:
        """Requests filtered by method, path glob (``/channels/*/messages``) and/or route template."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper())
            and (path is None or fnmatch.fnmatchcase(r.path, path))
            and (route is None or r.route == route)
        ]

    def public_payloads(self) -> list[Json]:
        """The message payloads of every non-ephemeral message the bot sent or edited."""
        return [r.message_data or {} for r in self.requests if r.is_public]

    def ephemeral_payloads(self) -> list[Json]:
        """The message payloads of every ephemeral message the bot sent or edited."""
        return [r.message_data or {} for r in self.requests if r.carries_message and r.ephemeral]

    def public_text(self) -> str:
        """All public payloads as JSON plus attachment filenames, one string for ``in`` checks."""
        parts: list[str] = []
        for r in self.requests:
            if r.is_public:
                parts.append(json.dumps(r.message_data or {}, ensure_ascii=False))
                parts.extend(f.filename for f in r.files)
        return "\n".join(parts)

    def commands(self, guild: FakeGuild | int | None = None) -> list[Json]:
        """Application commands last synced globally (``guild=None``) or for a guild."""
        return list(self._commands.get(_id(guild) if guild is not None else None, []))

    def command_names(self, guild: FakeGuild | int | None = None) -> list[str]:
        """Names of the synced commands."""
        return [c["name"] for c in self.commands(guild)]

    # ------------------------------------------------------------------ failures

    def record_failure(self, kind: str, detail: str, request: RecordedRequest | None = None) -> None:
        """Record a protocol violation (the fixture fails the test at teardown)."""
        self.failures.append(Failure(kind, detail, request))
        self._notify()

    def take_failures(self, kind: str | None = None) -> list[Failure]:
        """Remove and return the recorded failures (of ``kind``) so teardown does not fail on them."""
        taken = [f for f in self.failures if kind is None or f.kind == kind]
        self.failures = [f for f in self.failures if f not in taken]
        return taken

    def assert_no_failures(self) -> None:
        """Raise ``AssertionError`` listing every recorded failure."""
        if self.failures:
            lines = "\n  ".join(str(f) for f in self.failures)
            raise AssertionError(f"fake Discord recorded {len(self.failures)} failure(s):\n  {lines}")

    def fail_next(
        self, method: str, path_glob: str, *, status: int = 429, count: int = 1, retry_after: float = 0.01
    ) -> None:
        """Answer the next ``count`` requests matching ``method`` and path glob with 429 or a 5xx."""
        self._faults.append(_Fault(method.upper(), path_glob, status, count, retry_after))

    def upload(
        self, filename: str, data: bytes, content_type: str = "text/csv; charset=utf-8"
    ) -> FakeAttachment:
        """A file a user attaches to a slash command: pass it as the value of an attachment option
        (``slash("ttr new", cards1=fake.upload("ours.csv", data))``); the bot downloads it from the
        fake's CDN URL, as from Discord's."""
        att = FakeAttachment(self.snowflake(), filename, data, content_type)
        self.uploads[att.id] = att
        return att

    def fail_next_first_reply(self, how: str = "late", *, retry_after: float = 0.01) -> None:
        """Make the next interaction's first reply fail as it does on Discord: ``late`` (it arrives
        after the 3-second deadline: 404 Unknown interaction) or ``rate_limited`` (a 429; the
        retry arrives too late: 404). The player's client then shows "This interaction failed"."""
        if how not in ("late", "rate_limited"):
            raise ValueError(how)
        if how == "rate_limited":
            self.fail_next("POST", "/interactions/*/callback", status=429, retry_after=retry_after)
        self._late_replies += 1

    def hold_next(self, method: str, path_glob: str) -> Hold:
        """Hold the next request matching ``method`` and path glob until the test releases it (the
        bot sees a request in flight for as long as the test needs); nothing else is held."""
        hold = Hold(method.upper(), path_glob)
        self._holds.append(hold)
        return hold

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        for ev in self._waiters:
            ev.set()

    async def _wait_until(
        self,
        check: Callable[[], T | None],
        timeout: float,
        what: str,
        handle: InteractionHandle | None = None,
    ) -> T:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                reqs = handle.requests if handle is not None else self.requests[-10:]
                raise FakeDiscordTimeout(
                    f"timed out after {timeout}s waiting for {what}; requests: {reqs}; failures: "
                    f"{[str(f) for f in self.failures]}"
                )
            ev = asyncio.Event()
            self._waiters.append(ev)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ev.wait(), remaining)
            finally:
                self._waiters.remove(ev)

    async def wait_until(
        self, check: Callable[[], T | None], timeout: float = HANG_GUARD, what: str = "a condition"
    ) -> T:
        """Wait until ``check()`` returns something other than ``None``/``False`` (re-checked on every
        request, gateway event and failure, and at least every 50 ms) and return it."""

        def wrapped() -> T | None:
            result = check()
            return None if result is False else result

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                return await self._wait_until(wrapped, min(0.05, max(0.0, deadline - loop.time())), what)
            except FakeDiscordTimeout:
                if loop.time() >= deadline:
                    raise FakeDiscordTimeout(f"timed out after {timeout}s waiting for {what}") from None

    async def settle(self, quiet: float = 0.05, timeout: float = HANG_GUARD) -> None:
        """Wait until no REST request has arrived for ``quiet`` seconds (the bot is done reacting)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            count = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == count:
                return
            if loop.time() > deadline:
                raise FakeDiscordTimeout(
                    f"the bot kept sending requests for {timeout}s: {self.requests[-5:]}"
                )

    async def wait_for_request(
        self,
        predicate: Callable[[RecordedRequest], bool],
        timeout: float = HANG_GUARD,
        *,
        new_only: bool = False,
    ) -> RecordedRequest:
        """Wait for a request matching ``predicate`` (also among past ones unless ``new_only``)."""
        start = len(self.requests) if new_only else 0

        def check() -> RecordedRequest | None:
            return next((r for r in self.requests[start:] if predicate(r)), None)

        return await self._wait_until(check, timeout, "a matching request")

    async def wait_for_message(
        self,
        predicate: Callable[[FakeMessage], bool] = lambda m: True,
        timeout: float = HANG_GUARD,
        *,
        channel: FakeChannel | int | None = None,
        new_only: bool = True,
    ) -> FakeMessage:
        """Wait for a (non-loading) message matching ``predicate``, by default one created from now on."""
        known = set(self.messages) if new_only else set()
        cid = _id(channel) if channel is not None else None

        def check() -> FakeMessage | None:
            return next(
                (
                    m
                    for m in self.messages.values()
                    if m.id not in known
                    and not m.loading
                    and (cid is None or m.channel_id == cid)
                    and predicate(m)
                ),
                None,
            )

        return await self._wait_until(check, timeout, "a matching message")

    async def sync_commands_done(self, timeout: float = HANG_GUARD) -> RecordedRequest:
        """Wait until at least one command sync (PUT .../commands) happened."""
        return await self._wait_until(
            lambda: self.command_syncs[-1] if self.command_syncs else None, timeout, "a command sync"
        )

    # ------------------------------------------------------------------ gateway

    @property
    def connected(self) -> bool:
        """Whether a client has identified on the gateway."""
        return any(s.identified and not s.ws.closed for s in self._sessions)

    async def wait_connected(self, timeout: float = HANG_GUARD) -> None:
        """Wait until a client has identified."""
        await self._wait_until(lambda: True if self.connected else None, timeout, "a gateway IDENTIFY")

    async def dispatch(self, event: str, data: Json, *, intent: int | None = None) -> None:
        """Send a dispatch (op 0) to every identified session (whose intents include ``intent``)."""
        sessions = [s for s in self._sessions if s.identified and not s.ws.closed]
        if not sessions:
            raise RuntimeError(f"cannot dispatch {event}: no bot is connected to the fake gateway")
        guild = data.get("guild_id") if isinstance(data, dict) else None
        if event.startswith("GUILD_") and isinstance(data, dict) and "id" in data and guild is None:
            guild = data["id"]  # GUILD_CREATE/UPDATE: the guild's own id
        owners = [s for s in sessions if s.receives(None if guild is None else int(guild))]
        if owners:  # a sharded bot: only the shard that owns the server (DMs: shard 0)
            sessions = owners
        for s in sessions:
            if intent is None or s.intents & intent:
                await self._send(s, {"op": 0, "t": event, "d": data})

    async def _dispatch_quiet(self, event: str, data: Json, *, intent: int | None = None) -> None:
        with contextlib.suppress(RuntimeError, ConnectionError):
            await self.dispatch(event, data, intent=intent)

    async def _send(self, session: _Session, payload: Json) -> None:
        if payload.get("op") == 0:
            session.seq += 1
            payload["s"] = session.seq
        else:
            payload.setdefault("s", None)
            payload.setdefault("t", None)
        await session.ws.send_str(json.dumps(payload))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        try:
            await self._send(session, {"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    payload = json.loads(msg.data.decode())
                else:
                    break
                await self._gateway_op(session, payload)
        finally:
            self._sessions.remove(session)
            self._notify()
        return ws

    async def _gateway_op(self, session: _Session, payload: Json) -> None:
        op = payload.get("op")
        data: Json = payload.get("d") or {}
        if op == 1:
            await self._send(session, {"op": 11})
        elif op == 2:
            session.intents = int(data.get("intents", 0))
            shard = data.get("shard")
            if isinstance(shard, list) and len(shard) == 2:
                session.shard = (int(shard[0]), int(shard[1]))
            guilds = [g for g in self.guilds.values() if session.receives(g.id)]
            await self._send(
                session,
                {
                    "op": 0,
                    "t": "READY",
                    "d": {
                        "v": 10,
                        "user": self.bot_user.payload(),
                        "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                        "session_id": f"fake-session-{next(self._token_counter)}",
                        "resume_gateway_url": str(self.gateway_url),
                        "application": {"id": str(self.application_id), "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                        **({"shard": list(session.shard)} if session.shard is not None else {}),
                    },
                },
            )
            for g in guilds:
                await self._send(session, {"op": 0, "t": "GUILD_CREATE", "d": self.guild_create_payload(g)})
            session.identified = True
            self._notify()
        elif op == 6:
            await self._send(session, {"op": 9, "d": False})
        elif op == 8:
            guild = self.guilds.get(int(data["guild_id"]))
            if guild is not None:
                await self._send(
                    session,
                    {
                        "op": 0,
                        "t": "GUILD_MEMBERS_CHUNK",
                        "d": {
                            "guild_id": str(guild.id),
                            "members": [self.users[u].member_payload() for u in guild.member_ids],
                            "chunk_index": 0,
                            "chunk_count": 1,
                            "nonce": data.get("nonce"),
                            "not_found": [],
                        },
                    },
                )

    # ------------------------------------------------------------------ interaction injection

    def build_interaction(
        self, kind: int, data: Json, user: FakeUser, channel: FakeChannel, message: FakeMessage | None = None
    ) -> InteractionHandle:
        """Prepare (not dispatch) an interaction of any type with raw ``data``; edit ``handle.payload``
        freely, then ``await fake.inject(handle)``. The helpers below cover the usual cases."""
        iid = self.snowflake()
        token = f"fake-token-{next(self._token_counter)}-" + base64.urlsafe_b64encode(
            iid.to_bytes(8, "big")
        ).decode().rstrip("=")
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self._channel_payload(channel),
            "app_permissions": ALL_PERMISSIONS,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if channel.guild_id is not None:
            payload.update(
                {
                    "guild_id": str(channel.guild_id),
                    "guild_locale": self.guilds[channel.guild_id].preferred_locale
                    if channel.guild_id in self.guilds
                    else "en-US",
                    "member": user.member_payload(with_permissions=True),
                    "authorizing_integration_owners": {"0": str(channel.guild_id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "user": user.payload(),
                    "authorizing_integration_owners": {"0": str(user.id)},
                    "context": 1,
                }
            )
        if message is not None:
            payload["message"] = message.payload(self.url)
        handle = InteractionHandle(
            self, id=iid, token=token, kind=kind, payload=payload, user=user, channel=channel, message=message
        )
        self.interactions[iid] = handle
        self._by_token[token] = handle
        return handle

    _interaction_base = build_interaction  # backwards-compatible alias

    async def inject(self, handle: InteractionHandle) -> InteractionHandle:
        """Dispatch ``INTERACTION_CREATE`` for a prepared handle (the clock for its deadline restarts)."""
        handle.created = self.clock.now()
        await self.dispatch("INTERACTION_CREATE", handle.payload)
        return handle

    def _find_command(self, name: str, guild_id: int | None) -> tuple[Json | None, int | None]:
        if guild_id is not None:
            for cmd in self._commands.get(guild_id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, guild_id
        for cmd in self._commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, None
        return None, None

    def build_command_data(
        self,
        command: str,
        options: dict[str, Any],
        *,
        channel: FakeChannel,
        focused: str | None = None,
    ) -> Json:
        """Build ``data`` for a chat-input/autocomplete interaction (``"group sub name"`` paths)."""
        path = command.strip().lstrip("/").split()
        if not path:
            raise ValueError("empty command")
        schema, cmd_guild = self._find_command(path[0], channel.guild_id)
        resolved: Json = {}
        level_schema = schema
        leaf_opts: list[Json] = []
        root_opts: list[Json] = leaf_opts
        container: list[Json] | None = None
        for depth, name in enumerate(path[1:], start=1):
            sub_schema = None
            if level_schema is not None:
                sub_schema = next(
                    (
                        o
                        for o in level_schema.get("options") or []
                        if o["name"] == name and o["type"] in (1, 2)
                    ),
                    None,
                )
                if sub_schema is None:
                    raise ValueError(
                        f"/{' '.join(path[:depth])} has no subcommand {name!r} in the synced schema"
                    )
            typ = sub_schema["type"] if sub_schema else (1 if depth == len(path) - 1 else 2)
            node: Json = {"type": typ, "name": name, "options": []}
            if container is None:
                root_opts = [node]
            else:
                container.append(node)
            container = node["options"]
            level_schema = sub_schema
        leaf_opts = container if container is not None else root_opts
        declared = {o["name"]: o for o in (level_schema or {}).get("options") or []}
        for name, value in options.items():
            decl = declared.get(name)
            if level_schema is not None and decl is None:
                raise ValueError(f"/{command} has no option {name!r}; declared: {sorted(declared)}")
            opt_type, raw = self._option_value(value, decl, resolved, channel)
            if decl is not None and name != focused and self.strict_options:
                _check_option(command, decl, raw)
            opt: Json = {"type": opt_type, "name": name, "value": raw}
            if name == focused:
                opt["focused"] = True
            leaf_opts.append(opt)
        missing = [n for n, d in declared.items() if d.get("required") and n not in options]
        if missing and focused is None:
            raise ValueError(f"/{command} is missing required options {missing} (Discord would not send it)")
        if focused is not None and focused not in options:
            leaf_opts.append({"type": 3, "name": focused, "value": "", "focused": True})
        data: Json = {
            "id": str(schema["id"]) if schema else str(self._command_id(None, path[0], 1)),
            "name": path[0],
            "type": 1,
            "options": root_opts,
        }
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, value: Any, decl: Json | None, resolved: Json, channel: FakeChannel
    ) -> tuple[int, Any]:
        if isinstance(value, Opt):
            opt_type, value = value.type, value.value
        elif decl is not None:
            opt_type = decl["type"]
        elif isinstance(value, bool):
            opt_type = 5
        elif isinstance(value, int):
            opt_type = 4
        elif isinstance(value, float):
            opt_type = 10
        elif isinstance(value, FakeUser):
            opt_type = 6
        elif isinstance(value, FakeChannel):
            opt_type = 7
        elif isinstance(value, FakeAttachment):
            opt_type = 11
        else:
            opt_type = 3
        if opt_type == 6:
            user = value if isinstance(value, FakeUser) else self.users[int(value)]
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if channel.guild_id is not None:
                member = user.member_payload(with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
            return 6, str(user.id)
        if opt_type == 7:
            chan = value if isinstance(value, FakeChannel) else self.channels[int(value)]
            cdata = self._channel_payload(chan)
            cdata["permissions"] = ALL_PERMISSIONS
            resolved.setdefault("channels", {})[str(chan.id)] = cdata
            return 7, str(chan.id)
        if opt_type == 11:
            att = value if isinstance(value, FakeAttachment) else self.uploads[int(value)]
            self.uploads[att.id] = att
            url = f"{self.url}/attachments/uploads/{att.id}/{att.filename}"
            resolved.setdefault("attachments", {})[str(att.id)] = {
                "id": str(att.id),
                "filename": att.filename,
                "size": att.size,
                "url": url,
                "proxy_url": url,
                "content_type": att.content_type,
            }
            return 11, str(att.id)
        if opt_type == 4 and not isinstance(value, str):
            return 4, int(value)
        if opt_type == 10:
            return 10, float(value)
        if opt_type == 5:
            return 5, bool(value)
        return opt_type, value if opt_type != 3 else str(value)

    async def slash(
        self,
        command: str,
        *,
        user: FakeUser | None = None,
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> InteractionHandle:
        """Inject a chat-input command, e.g. ``slash("ttr claim", user=fake.alice, route=12)``."""
        channel = channel or self.general
        data = self.build_command_data(command, options, channel=channel)
        handle = self.build_interaction(IT_COMMAND, data, user or self.alice, channel, None)
        return await self.inject(handle)

    async def autocomplete(
        self,
        command: str,
        *,
        focused: str,
        value: str = "",
        user: FakeUser | None = None,
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> InteractionHandle:
        """Inject an autocomplete request (type 4) with ``focused`` option currently typed as ``value``."""
        channel = channel or self.general
        data = self.build_command_data(command, {**options, focused: value}, channel=channel, focused=focused)
        handle = self.build_interaction(IT_AUTOCOMPLETE, data, user or self.alice, channel, None)
        return await self.inject(handle)

    def _component_target(
        self, message: FakeMessage | int, custom_id: str | None, label: str | None
    ) -> tuple[FakeMessage, Json]:
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        msg = self.messages.get(msg.id, msg)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        comp = msg.find_component(custom_id, label=label)
        if comp.get("disabled"):
            raise LookupError(f"component {comp.get('custom_id')!r} on message {msg.id} is disabled")
        return msg, comp

    def _check_can_see(self, msg: FakeMessage, user: FakeUser) -> None:
        if msg.visible_to not in (None, user.id):
            raise LookupError(f"user {user.name} cannot see ephemeral message {msg.id}")

    async def click(
        self,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        user: FakeUser | None = None,
    ) -> InteractionHandle:
        """Click a button on a stored message (found by ``custom_id`` or ``label``)."""
        user = user or self.alice
        msg, comp = self._component_target(message, custom_id, label)
        self._check_can_see(msg, user)
        if comp.get("type") != 2 or "custom_id" not in comp:
            raise LookupError(f"component {comp} is not a clickable (non-link) button")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        chan = self.channels[msg.channel_id]
        return await self.inject(self.build_interaction(IT_COMPONENT, data, user, chan, msg))

    async def select(
        self,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        user: FakeUser | None = None,
    ) -> InteractionHandle:
        """Choose ``values`` in a select menu on a stored message."""
        user = user or self.alice
        msg, comp = self._component_target(message, custom_id, None)
        self._check_can_see(msg, user)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise LookupError(f"component {custom_id!r} is not a select menu")
        if ctype == 3:
            allowed = {o["value"] for o in comp.get("options") or []}
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise LookupError(
                    f"select {custom_id!r} has no options {unknown}; options: {sorted(allowed)}"
                )
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise LookupError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: Json = {"custom_id": custom_id, "component_type": ctype, "values": [str(v) for v in values]}
        if ctype == 5:
            data["resolved"] = {"users": {str(v): self.users[int(v)].payload() for v in values}}
        chan = self.channels[msg.channel_id]
        return await self.inject(self.build_interaction(IT_COMPONENT, data, user, chan, msg))

    async def forge_component(
        self,
        message: FakeMessage | int,
        custom_id: str,
        *,
        component_type: int = 2,
        values: Sequence[str] | None = None,
        user: FakeUser | None = None,
    ) -> InteractionHandle:
        """Inject a component interaction whose ``custom_id``/``values`` are NOT on the stored message.

        For robustness tests (garbled or forged ids). Discord only delivers ids present on the message,
        so the carried copy of the message gets a row with exactly the forged component; the stored
        message is unchanged.
        """
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        comp: Json = {"type": component_type, "custom_id": custom_id}
        data: Json = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 2:
            comp.update({"style": 1, "label": "forged"})
        else:
            vals = [str(v) for v in values or []]
            data["values"] = vals
            comp.update(
                {
                    "options": [{"label": v, "value": v} for v in vals] or [{"label": "x", "value": "x"}],
                    "min_values": 0,
                    "max_values": max(1, len(vals)),
                }
            )
        handle = self.build_interaction(
            IT_COMPONENT, data, user or self.alice, self.channels[msg.channel_id], msg
        )
        handle.payload["message"]["components"] = [{"type": 1, "components": [comp]}]
        return await self.inject(handle)

    async def submit_modal(
        self,
        opened_by: InteractionHandle,
        values: dict[str, str],
        *,
        user: FakeUser | None = None,
    ) -> InteractionHandle:
        """Submit the modal that ``opened_by`` answered with (type 9), filling text inputs by custom_id."""
        modal = opened_by.modal
        if modal is None:
            raise LookupError(f"{opened_by.describe()} did not open a modal")
        user = user or opened_by.user

        def fill(comp: Json) -> Json | None:
            if comp.get("type") == 1:
                return {"type": 1, "components": [c for c in map(fill, comp.get("components") or []) if c]}
            if comp.get("type") == 18:
                inner = fill(comp["component"])
                return {"type": 18, "component": inner} if inner else None
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": comp["custom_id"], "value": values.get(comp["custom_id"], "")}
            if "custom_id" in comp and comp["custom_id"] in values:
                val = values[comp["custom_id"]]
                return {"type": comp["type"], "custom_id": comp["custom_id"], "values": list(val)}
            return None

        comps = [c for c in map(fill, modal.get("components") or []) if c]
        data = {"custom_id": modal["custom_id"], "components": comps}
        msg = opened_by.message
        return await self.inject(self.build_interaction(IT_MODAL, data, user, opened_by.channel, msg))

    async def user_message(self, channel: FakeChannel | None, user: FakeUser, content: str) -> FakeMessage:
        """A user posts ``content`` in ``channel`` (MESSAGE_CREATE is dispatched)."""
        channel = channel or self.general
        msg = FakeMessage(
            self.snowflake(),
            channel.id,
            user,
            guild_id=channel.guild_id,
            content=content,
            timestamp=self.clock.iso(),
        )
        self.messages[msg.id] = msg
        await self._message_event("MESSAGE_CREATE", msg)
        self._notify()
        return msg

    async def _message_event(self, event: str, msg: FakeMessage) -> None:
        if msg.ephemeral:
            return
        data = msg.payload(self.url)
        if event == "MESSAGE_DELETE":
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
        elif msg.guild_id is not None:
            member = msg.author.member_payload()
            member.pop("user")
            data["member"] = member
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        await self._dispatch_quiet(event, data, intent=intent)

    # ------------------------------------------------------------------ REST plumbing

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/oauth2/applications/@me", self._get_app)
        r("GET", "/applications/@me", self._get_app)
        # interactions
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback)
        r("POST", "/webhooks/{app_id}/{token}", self._followup)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_edit)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete)
        # commands
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._cmd_list)
            r("PUT", prefix + "/commands", self._cmd_put)
            r("POST", prefix + "/commands", self._cmd_create)
            r("GET", prefix + "/commands/{command_id}", self._cmd_get)
            r("PATCH", prefix + "/commands/{command_id}", self._cmd_edit)
            r("DELETE", prefix + "/commands/{command_id}", self._cmd_delete)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._cmd_perms)
        # channels and messages
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("DELETE", "/channels/{channel_id}", self._delete_channel)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._send_message)
        r("GET", "/channels/{channel_id}/messages/pins", self._list_pins_new)
        r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin)
        r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._unpin)
        r("GET", "/channels/{channel_id}/pins", self._list_pins_old)
        r("PUT", "/channels/{channel_id}/pins/{message_id}", self._pin)
        r("DELETE", "/channels/{channel_id}/pins/{message_id}", self._unpin)
        r("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._react)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._unreact)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", self._clear_reactions)
        r("GET", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", self._get_reactions)
        # threads
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member_add)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member_remove)
        r("GET", "/channels/{channel_id}/thread-members", self._thread_members)
        r("GET", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member)
        r("GET", "/guilds/{guild_id}/threads/active", self._active_threads)
        # guilds
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._guild_roles)
        r("GET", "/guilds/{guild_id}/members", self._guild_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._guild_member)

    def _route(self, method: str, template: str, handler: _Handler) -> None:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        self._routes.append((method, re.compile(f"^{pattern}$"), template, handler))

    def _match(self, method: str, path: str) -> tuple[str, _Handler, dict[str, str]] | None:
        for m, pattern, template, handler in self._routes:
            if m == method:
                hit = pattern.match(path)
                if hit:
                    return template, handler, hit.groupdict()
        return None

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        ctype = request.content_type
        files: list[UploadedFile] = []
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                assert isinstance(part, aiohttp.BodyPartReader)
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    data = await part.read(decode=False)
                    files.append(
                        UploadedFile(
                            part.name or "",
                            part.filename or "",
                            part.headers.get("Content-Type", "application/octet-stream"),
                            bytes(data),
                        )
                    )
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode(errors="replace"), files

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        body, files = await self._read_body(request)
        matched = self._match(method, path)
        rec = RecordedRequest(
            seq=next(self._seq),
            method=method,
            path=path,
            route=f"{method} {matched[0]}" if matched else f"{method} ?",
            query=dict(request.query),
            json=body,
            files=files,
        )
        self.requests.append(rec)
        hold = next(
            (h for h in self._holds if h.method == method and fnmatch.fnmatchcase(path, h.glob)), None
        )
        if hold is not None:
            self._holds.remove(hold)
            hold.request = rec
            hold.reached.set()
            self._notify()
            await hold.released.wait()
        try:
            fault = self._take_fault(method, path)
            if fault is not None:
                rec.injected = True
                return self._fault_response(rec, fault)
            if matched is None:
                rec.status = 404
                rec.error = "unknown route"
                self.record_failure("unknown_route", f"{method} {path} (body={body!r})", rec)
                rec.response = {"message": "404: Not Found", "code": 0}
                return _json_response(404, rec.response)
            _, handler, params = matched
            try:
                status, resp = await handler(_Ctx(params, body, files, dict(request.query), rec))
            except _HTTPError as err:
                status, resp = err.status, {"message": err.message, "code": err.code}
                if err.status == 400 and err.code == 50035:
                    resp["errors"] = {}
                rec.error = err.message
                if err.kind:
                    self.record_failure(err.kind, f"{method} {path}: {err.message}", rec)
            rec.status = 204 if resp is None and status == 200 else status
            rec.response = resp
            return _json_response(status, resp)
        finally:
            self._notify()

    async def _outside_api(self, request: web.Request) -> web.StreamResponse:
        rec = RecordedRequest(
            seq=next(self._seq),
            method=request.method,
            path=request.path,
            route="? outside /api/v10",
            query=dict(request.query),
            json=None,
            files=[],
            status=404,
            error="unknown route",
        )
        self.requests.append(rec)
        self.record_failure("unknown_route", f"{request.method} {request.path} (outside {API_PREFIX})", rec)
        return _json_response(404, {"message": "404: Not Found", "code": 0})

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.count > 0 and fault.method == method and fnmatch.fnmatchcase(path, fault.glob):
                fault.count -= 1
                if fault.count == 0:
                    self._faults.remove(fault)
                return fault
        return None

    def _fault_response(self, rec: RecordedRequest, fault: _Fault) -> web.Response:
        rec.status = fault.status
        if fault.status == 429:
            rec.response = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(fault.retry_after),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(fault.retry_after),
                "X-RateLimit-Bucket": "fake-bucket",
                "X-RateLimit-Scope": "user",
            }
            return _json_response(429, rec.response, headers)
        rec.response = {"message": "500: Internal Server Error", "code": 0}
        return _json_response(fault.status, rec.response)

    async def _attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["aid"])
        msg_att = self.uploads.get(aid)
        for m in self.messages.values():
            for a in m.attachments:
                if a.id == aid:
                    msg_att = a
        if msg_att is None:
            return web.Response(status=404)
        return web.Response(body=msg_att.data, content_type=msg_att.content_type.split(";")[0])

    # ------------------------------------------------------------------ lookups

    def _channel(self, cid: str) -> FakeChannel:
        chan = self.channels.get(int(cid)) if cid.isdigit() else None
        if chan is None or chan.deleted:
            raise _HTTPError(404, 10003, "Unknown Channel", "not_found")
        return chan

    def _message_in(self, cid: str, mid: str) -> FakeMessage:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
            raise _HTTPError(404, 10008, "Unknown Message", "not_found")
        return msg

    def _user(self, uid: str) -> FakeUser:
        if uid == "@me":
            return self.bot_user
        user = self.users.get(int(uid)) if uid.isdigit() else None
        if user is None:
            raise _HTTPError(404, 10013, "Unknown User", "not_found")
        return user

    def _guild(self, gid: str) -> FakeGuild:
        guild = self.guilds.get(int(gid)) if gid.isdigit() else None
        if guild is None:
            raise _HTTPError(404, 10004, "Unknown Guild", "not_found")
        return guild

    def _webhook_handle(self, ctx: _Ctx) -> InteractionHandle:
        handle = self._by_token.get(ctx.params["token"])
        if handle is None or ctx.params["app_id"] != str(self.application_id):
            raise _HTTPError(404, 10015, "Unknown Webhook", "unknown_interaction")
        ctx.rec.interaction = handle
        handle.requests.append(ctx.rec)
        if handle.expired():
            raise _HTTPError(401, 50027, "Invalid Webhook Token", "expired_token")
        if handle.invalid:
            raise _HTTPError(404, 10015, "Unknown Webhook", "unknown_interaction")
        if not handle.acknowledged:
            raise _HTTPError(404, 10015, "Unknown Webhook", "followup_before_ack")
        return handle

    # ------------------------------------------------------------------ message building

    def _validate_message(self, data: Json, files: list[UploadedFile], *, creating: bool, flags: int) -> None:
        problems: list[str] = []
        content = data.get("content")
        if content is not None and len(str(content)) > 2000:
            problems.append(f"content has {len(str(content))} > 2000 characters")
        embeds = data.get("embeds") or []
        if len(embeds) > 10:
            problems.append(f"{len(embeds)} > 10 embeds")
        total = 0
        for e in embeds:
            for key, limit in (("title", 256), ("description", 4096)):
                n = len(e.get(key) or "")
                total += n
                if n > limit:
                    problems.append(f"embed {key} has {n} > {limit} characters")
            fields = e.get("fields") or []
            if len(fields) > 25:
                problems.append(f"embed has {len(fields)} > 25 fields")
            for f in fields:
                total += len(f.get("name") or "") + len(f.get("value") or "")
                if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                    problems.append("embed field name > 256 or value > 1024 characters")
            footer = len((e.get("footer") or {}).get("text") or "")
            author = len((e.get("author") or {}).get("name") or "")
            total += footer + author
            if footer > 2048 or author > 256:
                problems.append("embed footer > 2048 or author > 256 characters")
        if total > 6000:
            problems.append(f"embeds total {total} > 6000 characters")
        comps = data.get("components") or []
        if flags & IS_COMPONENTS_V2:
            if data.get("content") or embeds:
                problems.append("IS_COMPONENTS_V2 messages cannot have content or embeds")
        else:
            if len(comps) > 5:
                problems.append(f"{len(comps)} > 5 action rows")
            for row in comps:
                if row.get("type") != 1:
                    problems.append(f"top-level component type {row.get('type')} is not an action row")
                    continue
                kids = row.get("components") or []
                if not 1 <= len(kids) <= 5:
                    problems.append(f"action row has {len(kids)} components (1..5)")
                if any(k.get("type") != 2 for k in kids) and len(kids) > 1:
                    problems.append("a select menu must be alone in its action row")
        probe = FakeMessage(0, 0, self.bot_user, components=comps)
        seen: set[str] = set()
        for comp in probe.iter_components():
            cid = comp.get("custom_id")
            if cid is not None:
                if not 1 <= len(cid) <= 100:
                    problems.append(f"custom_id {cid!r} is not 1..100 characters")
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if comp.get("type") == 2:
                if len(comp.get("label") or "") > 80:
                    problems.append(f"button label {comp.get('label')!r} > 80 characters")
                if comp.get("style") == 5 and not comp.get("url"):
                    problems.append("link button without url")
            if comp.get("type") == 3:
                opts = comp.get("options") or []
                if not 1 <= len(opts) <= 25:
                    problems.append(f"select {cid!r} has {len(opts)} options (1..25)")
                for o in opts:
                    if any(len(str(o.get(k) or "")) > 100 for k in ("label", "value", "description")):
                        problems.append(f"select option {o.get('label')!r}: label/value/description > 100")
        if len(files) > 10:
            problems.append(f"{len(files)} > 10 files")
        if creating and not (
            content or embeds or comps or files or data.get("sticker_ids") or data.get("poll")
        ):
            raise _HTTPError(400, 50006, "Cannot send an empty message", "invalid_form_body")
        if problems:
            raise _HTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems), "invalid_form_body")
        for f in files:
            if len(f.data) > 10 * 1024 * 1024:
                raise _HTTPError(413, 40005, f"Request entity too large ({f.filename})", "file_too_large")

    def _apply(
        self, msg: FakeMessage, data: Json | None, files: list[UploadedFile], *, creating: bool
    ) -> None:
        data = data or {}
        flags = int(data.get("flags") or 0) | (msg.flags & IS_COMPONENTS_V2)
        self._validate_message(data, files, creating=creating, flags=flags)
        if not creating:
            msg.history.append(msg.payload(self.url))
            msg.edits += 1
            msg.edited_timestamp = self.clock.iso()
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        if "embed" in data:
            msg.embeds = [data["embed"]] if data["embed"] else []
        if "components" in data:
            msg.components = list(data["components"] or [])
        if creating:
            msg.flags |= flags & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2)
            if data.get("message_reference"):
                msg.message_reference = data["message_reference"]
        elif "flags" in data:
            msg.flags = (msg.flags & ~SUPPRESS_EMBEDS) | (flags & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        by_field = {f.field: f for f in files}
        if "attachments" in data:
            existing = {str(a.id): a for a in msg.attachments}
            new: list[FakeAttachment] = []
            used: set[str] = set()
            for a in data["attachments"] or []:
                key = str(a.get("id"))
                upload = by_field.get(f"files[{key}]")
                if upload is not None:
                    used.add(upload.field)
                    new.append(self._attachment_from(upload, a.get("filename"), a.get("description")))
                elif key in existing:
                    new.append(existing[key])
            new += [self._attachment_from(f, None, None) for f in files if f.field not in used]
            msg.attachments = new
        elif files:
            msg.attachments = ([] if creating else msg.attachments) + [
                self._attachment_from(f, None, None) for f in files
            ]

    def _attachment_from(
        self, upload: UploadedFile, filename: str | None, description: str | None
    ) -> FakeAttachment:
        return FakeAttachment(
            self.snowflake(), filename or upload.filename, upload.data, upload.content_type, description
        )

    def _new_message(
        self,
        channel: FakeChannel,
        data: Json | None,
        files: list[UploadedFile],
        *,
        flags: int = 0,
        interaction: InteractionHandle | None = None,
    ) -> FakeMessage:
        msg = FakeMessage(
            self.snowflake(),
            channel.id,
            self.bot_user,
            guild_id=channel.guild_id,
            flags=flags,
            interaction=interaction,
            webhook_id=self.application_id if interaction is not None else None,
            timestamp=self.clock.iso(),
        )
        self._apply(msg, data, files, creating=True)
        self.messages[msg.id] = msg
        return msg

    def _mark(self, rec: RecordedRequest, msg: FakeMessage) -> None:
        rec.message = msg
        rec.carries_message = True
        rec.ephemeral = msg.ephemeral
        data = rec.message_data
        if rec.requested_ephemeral is None and data is not None and "flags" in data:
            rec.requested_ephemeral = bool(int(data["flags"] or 0) & EPHEMERAL)

    # ------------------------------------------------------------------ handlers: basics

    async def _get_gateway(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {"url": f"ws://127.0.0.1:{self.port}/gateway"}

    async def _get_gateway_bot(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {
            "url": f"ws://127.0.0.1:{self.port}/gateway",
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    async def _get_me(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _get_user(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, self._user(ctx.params["user_id"]).payload()

    async def _create_dm(self, ctx: _Ctx) -> tuple[int, Any]:
        user = self._user(str((ctx.json or {}).get("recipient_id")))
        return 200, self.dm_channel(user).payload()

    async def _get_app(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.alice.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "rpc_origins": [],
            "bot": self.bot_user.payload(),
        }

    # ------------------------------------------------------------------ handlers: interactions

    async def _callback(self, ctx: _Ctx) -> tuple[int, Any]:
        iid = ctx.params["interaction_id"]
        handle = self.interactions.get(int(iid)) if iid.isdigit() else None
        if handle is None or handle.token != ctx.params["token"]:
            raise _HTTPError(404, 10062, "Unknown interaction", "unknown_interaction")
        ctx.rec.interaction = handle
        handle.requests.append(ctx.rec)
        body = ctx.json if isinstance(ctx.json, dict) else {}
        if handle.acknowledged:
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.", "double_ack")
        if self._late_replies and not handle.invalid and handle.kind != IT_AUTOCOMPLETE:
            self._late_replies -= 1  # the test asked for it: not a failure of the bot
            handle.invalid = True
            ctx.rec.injected = True
            raise _HTTPError(404, 10062, "Unknown interaction (the first reply came too late)")
        if handle.invalid:
            raise _HTTPError(404, 10062, "Unknown interaction", "late_ack")
        elapsed = self.clock.now() - handle.created
        if elapsed > self.response_deadline:
            handle.invalid = True
            raise _HTTPError(
                404,
                10062,
                f"Unknown interaction (first response after {elapsed:.2f}s > {self.response_deadline}s)",
                "late_ack",
            )
        cb_type = body.get("type")
        data = body.get("data") or {}
        allowed = {
            IT_COMMAND: {CB_MESSAGE, CB_DEFER, CB_MODAL},
            IT_COMPONENT: {CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_MODAL},
            IT_AUTOCOMPLETE: {CB_AUTOCOMPLETE},
            IT_MODAL: {CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE},
        }[handle.kind]
        if cb_type not in allowed:
            raise _HTTPError(
                400,
                40043,
                f"callback type {cb_type} not valid for interaction type {handle.kind}",
                "invalid_callback",
            )
        if cb_type in (CB_DEFER_UPDATE, CB_UPDATE) and handle.message is None:
            raise _HTTPError(400, 40043, "no message to update", "invalid_callback")
        resource: Json = {"type": cb_type}
        if cb_type == CB_MESSAGE:
            flags = int(data.get("flags") or 0)
            msg = self._new_message(
                handle.channel, data, ctx.files, flags=flags & EPHEMERAL, interaction=handle
            )
            handle.original = msg
            self._mark(ctx.rec, msg)
            resource["message"] = msg.payload(self.url)
            await self._message_event("MESSAGE_CREATE", msg)
        elif cb_type == CB_DEFER:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            msg = FakeMessage(
                self.snowflake(),
                handle.channel.id,
                self.bot_user,
                guild_id=handle.channel.guild_id,
                flags=flags | LOADING,
                interaction=handle,
                webhook_id=self.application_id,
                timestamp=self.clock.iso(),
            )
            self.messages[msg.id] = msg
            handle.original = msg
            ctx.rec.message = msg
            ctx.rec.ephemeral = msg.ephemeral
            resource["message"] = msg.payload(self.url)
        elif cb_type in (CB_DEFER_UPDATE, CB_UPDATE):
            assert handle.message is not None
            msg = self.messages.get(handle.message.id, handle.message)
            handle.original = msg
            if cb_type == CB_UPDATE:
                self._apply(msg, data, ctx.files, creating=False)
                self._mark(ctx.rec, msg)
                await self._message_event("MESSAGE_UPDATE", msg)
            resource["message"] = msg.payload(self.url)
        elif cb_type == CB_AUTOCOMPLETE:
            choices = list(data.get("choices") or [])
            problems = []
            if len(choices) > 25:
                problems.append(f"{len(choices)} > 25 choices")
            for c in choices:
                if not 1 <= len(str(c.get("name", ""))) <= 100:
                    problems.append(f"choice name {c.get('name')!r} is not 1..100 characters")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    problems.append(f"choice value {c['value']!r} > 100 characters")
            if problems:
                raise _HTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems), "invalid_form_body")
            handle.choices = choices
        elif cb_type == CB_MODAL:
            if not data.get("custom_id") or not data.get("title"):
                raise _HTTPError(
                    400, 50035, "Invalid Form Body: modal needs custom_id and title", "invalid_form_body"
                )
            handle.modal = data
        handle.ack_type = cb_type
        handle.ack_request = ctx.rec
        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return 200, None
        original = handle.original
        return 200, {
            "interaction": {
                "id": str(handle.id),
                "type": handle.kind,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": bool(original and original.loading),
                "response_message_ephemeral": bool(original and original.ephemeral),
            },
            "resource": resource,
        }

    async def _followup(self, ctx: _Ctx) -> tuple[int, Any]:
        handle = self._webhook_handle(ctx)
        data = ctx.json if isinstance(ctx.json, dict) else {}
        requested = bool(int(data.get("flags") or 0) & EPHEMERAL)
        original = handle.original
        if handle.ack_type == CB_DEFER and original is not None and original.loading:
            # gotcha 6: the first follow-up fills the loading message and keeps the defer's visibility
            self._apply(original, data, ctx.files, creating=False)
            original.flags &= ~LOADING
            original.edits -= 1
            original.history.pop()
            original.edited_timestamp = None
            self._mark(ctx.rec, original)
            ctx.rec.requested_ephemeral = requested
            if requested and not original.ephemeral:
                self.record_failure(
                    "ephemeral_ignored",
                    f"{handle.describe()}: follow-up asked ephemeral=True but fills the PUBLIC deferred "
                    f"message (defer(ephemeral=...) decides visibility): {str(data.get('content'))[:80]!r}",
                    ctx.rec,
                )
            await self._message_event("MESSAGE_CREATE", original)
            msg = original
        else:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            msg = self._new_message(handle.channel, data, ctx.files, flags=flags, interaction=handle)
            handle.followups.append(msg)
            self._mark(ctx.rec, msg)
            await self._message_event("MESSAGE_CREATE", msg)
        if ctx.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload(self.url)
        return 200, None

    def _webhook_message(self, handle: InteractionHandle, mid: str) -> FakeMessage:
        if mid == "@original":
            msg = handle.original
        else:
            msg = next((m for m in [handle.original, *handle.followups] if m and str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message", "not_found")
        return msg

    async def _webhook_get(self, ctx: _Ctx) -> tuple[int, Any]:
        handle = self._webhook_handle(ctx)
        return 200, self._webhook_message(handle, ctx.params["message_id"]).payload(self.url)

    async def _webhook_edit(self, ctx: _Ctx) -> tuple[int, Any]:
        handle = self._webhook_handle(ctx)
        msg = self._webhook_message(handle, ctx.params["message_id"])
        was_loading = msg.loading
        self._apply(msg, ctx.json if isinstance(ctx.json, dict) else {}, ctx.files, creating=False)
        msg.flags &= ~LOADING
        self._mark(ctx.rec, msg)
        await self._message_event("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", msg)
        return 200, msg.payload(self.url)

    async def _webhook_delete(self, ctx: _Ctx) -> tuple[int, Any]:
        handle = self._webhook_handle(ctx)
        msg = self._webhook_message(handle, ctx.params["message_id"])
        msg.deleted = True
        await self._message_event("MESSAGE_DELETE", msg)
        return 200, None

    # ------------------------------------------------------------------ handlers: commands

    def _scope(self, ctx: _Ctx) -> int | None:
        if ctx.params["app_id"] != str(self.application_id):
            raise _HTTPError(403, 50001, "Missing Access", "not_found")
        gid = ctx.params.get("guild_id")
        return self._guild(gid).id if gid is not None else None

    def _command_id(self, scope: int | None, name: str, type_: int) -> int:
        key = (scope, name, type_)
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        return self._command_ids[key]

    def _store_command(self, scope: int | None, body: Json) -> Json:
        name = str(body.get("name", ""))
        type_ = int(body.get("type", 1))
        problems = []
        if type_ == 1 and (not re.fullmatch(r"[-_'\w]{1,32}", name) or name != name.lower()):
            problems.append(f"invalid command name {name!r}")
        if type_ == 1 and not 1 <= len(body.get("description") or "") <= 100:
            problems.append(f"/{name}: description must be 1..100 characters")

        def check_opts(opts: list[Json], where: str) -> None:
            if len(opts) > 25:
                problems.append(f"{where}: {len(opts)} > 25 options")
            for o in opts:
                if not re.fullmatch(r"[-_'\w]{1,32}", o.get("name", "")):
                    problems.append(f"{where}: invalid option name {o.get('name')!r}")
                if len(o.get("choices") or []) > 25:
                    problems.append(f"{where} {o.get('name')}: > 25 choices")
                check_opts(o.get("options") or [], f"{where} {o.get('name')}")

        check_opts(body.get("options") or [], f"/{name}")
        if problems:
            raise _HTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems), "invalid_form_body")
        cmd = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "type": type_,
            **body,
            "id": str(self._command_id(scope, name, type_)),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
        }
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    async def _cmd_list(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, self._commands.get(self._scope(ctx), [])

    async def _cmd_put(self, ctx: _Ctx) -> tuple[int, Any]:
        scope = self._scope(ctx)
        body = ctx.json if isinstance(ctx.json, list) else []
        chat = sum(1 for c in body if c.get("type", 1) == 1)
        if chat > 100:
            raise _HTTPError(
                400, 30032, "Maximum number of application commands reached (100)", "invalid_form_body"
            )
        self._commands[scope] = [self._store_command(scope, c) for c in body]
        self.command_syncs.append(ctx.rec)
        return 200, self._commands[scope]

    async def _cmd_create(self, ctx: _Ctx) -> tuple[int, Any]:
        scope = self._scope(ctx)
        cmd = self._store_command(scope, ctx.json or {})
        cmds = [c for c in self._commands.get(scope, []) if c["id"] != cmd["id"]]
        self._commands[scope] = [*cmds, cmd]
        return 201, cmd

    def _cmd_find(self, ctx: _Ctx) -> tuple[int | None, Json]:
        scope = self._scope(ctx)
        for cmd in self._commands.get(scope, []):
            if cmd["id"] == ctx.params["command_id"]:
                return scope, cmd
        raise _HTTPError(404, 10063, "Unknown application command", "not_found")

    async def _cmd_get(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, self._cmd_find(ctx)[1]

    async def _cmd_edit(self, ctx: _Ctx) -> tuple[int, Any]:
        scope, cmd = self._cmd_find(ctx)
        cmd.update(ctx.json or {})
        return 200, cmd

    async def _cmd_delete(self, ctx: _Ctx) -> tuple[int, Any]:
        scope, cmd = self._cmd_find(ctx)
        self._commands[scope] = [c for c in self._commands[scope] if c is not cmd]
        return 200, None

    async def _cmd_perms(self, ctx: _Ctx) -> tuple[int, Any]:
        self._scope(ctx)
        return 200, []

    # ------------------------------------------------------------------ handlers: channels/messages

    async def _get_channel(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, self._channel_payload(self._channel(ctx.params["channel_id"]))

    async def _edit_channel(self, ctx: _Ctx) -> tuple[int, Any]:
        chan = self._channel(ctx.params["channel_id"])
        body = ctx.json or {}
        for key in ("name", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in body:
                setattr(chan, key, body[key])
        payload = self._channel_payload(chan)
        if chan.guild_id is not None:
            await self._dispatch_quiet("THREAD_UPDATE" if chan.is_thread else "CHANNEL_UPDATE", payload)
        return 200, payload

    async def _delete_channel(self, ctx: _Ctx) -> tuple[int, Any]:
        chan = self._channel(ctx.params["channel_id"])
        chan.deleted = True
        payload = self._channel_payload(chan)
        if chan.guild_id is not None:
            if chan.is_thread:
                data = {
                    "id": str(chan.id),
                    "guild_id": str(chan.guild_id),
                    "parent_id": str(chan.parent_id),
                    "type": chan.type,
                }
                await self._dispatch_quiet("THREAD_DELETE", data)
            else:
                await self._dispatch_quiet("CHANNEL_DELETE", payload)
        return 200, payload

    async def _typing(self, ctx: _Ctx) -> tuple[int, Any]:
        self._channel(ctx.params["channel_id"])
        return 200, None

    async def _list_messages(self, ctx: _Ctx) -> tuple[int, Any]:
        chan = self._channel(ctx.params["channel_id"])
        msgs = sorted(self.messages_in(chan, ephemeral=False), key=lambda m: m.id, reverse=True)
        if "before" in ctx.query:
            msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
        if "after" in ctx.query:
            msgs = [m for m in msgs if m.id > int(ctx.query["after"])]
        msgs = [m for m in msgs if not m.loading][: int(ctx.query.get("limit", 50))]
        return 200, [m.payload(self.url) for m in msgs]

    async def _send_message(self, ctx: _Ctx) -> tuple[int, Any]:
        chan = self._channel(ctx.params["channel_id"])
        if chan.is_thread and chan.locked:
            raise _HTTPError(403, 50083, "Thread is locked", "forbidden")
        chan.archived = False
        data = ctx.json if isinstance(ctx.json, dict) else {}
        if int(data.get("flags") or 0) & EPHEMERAL:
            raise _HTTPError(
                400, 50035, "Invalid Form Body: channel messages cannot be ephemeral", "invalid_form_body"
            )
        nonce = data.get("nonce")
        if nonce is not None and data.get("enforce_nonce"):
            # Discord: "If another message was created by the same author with the same nonce
            # [in the past few minutes], that message will be returned and no new message created."
            seen = self._nonces.get(str(nonce))
            if seen is not None and self.clock.now() - seen[1] <= NONCE_MINUTES * 60:
                self.nonce_repeats += 1
                msg = self.messages[seen[0]]
                self._mark(ctx.rec, msg)
                return 200, msg.payload(self.url)
        msg = self._new_message(chan, data, ctx.files)
        if nonce is not None and data.get("enforce_nonce"):
            self._nonces[str(nonce)] = (msg.id, self.clock.now())
            msg.nonce = str(nonce)
        self._mark(ctx.rec, msg)
        await self._message_event("MESSAGE_CREATE", msg)
        return 200, msg.payload(self.url)

    async def _get_message(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        return 200, msg.payload(self.url)

    async def _edit_message(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        if msg.author.id != self.bot_user.id and set(ctx.json or {}) - {"flags"}:
            raise _HTTPError(403, 50005, "Cannot edit a message authored by another user", "forbidden")
        self._apply(msg, ctx.json if isinstance(ctx.json, dict) else {}, ctx.files, creating=False)
        self._mark(ctx.rec, msg)
        await self._message_event("MESSAGE_UPDATE", msg)
        return 200, msg.payload(self.url)

    async def _delete_message(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        msg.deleted = True
        await self._message_event("MESSAGE_DELETE", msg)
        return 200, None

    async def _bulk_delete(self, ctx: _Ctx) -> tuple[int, Any]:
        for mid in (ctx.json or {}).get("messages", []):
            self._message_in(ctx.params["channel_id"], str(mid)).deleted = True
        return 200, None

    async def _pin(self, ctx: _Ctx) -> tuple[int, Any]:
        self._message_in(ctx.params["channel_id"], ctx.params["message_id"]).pinned = True
        return 200, None

    async def _unpin(self, ctx: _Ctx) -> tuple[int, Any]:
        self._message_in(ctx.params["channel_id"], ctx.params["message_id"]).pinned = False
        return 200, None

    def _pinned(self, ctx: _Ctx) -> list[FakeMessage]:
        chan = self._channel(ctx.params["channel_id"])
        return [m for m in self.messages_in(chan, ephemeral=False) if m.pinned]

    async def _list_pins_old(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, [m.payload(self.url) for m in self._pinned(ctx)]

    async def _list_pins_new(self, ctx: _Ctx) -> tuple[int, Any]:
        items = [{"pinned_at": m.timestamp, "message": m.payload(self.url)} for m in self._pinned(ctx)]
        return 200, {"items": items, "has_more": False}

    async def _react(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        entry = (ctx.params["emoji"], self.bot_user.id)
        if entry not in msg.reactions:
            msg.reactions.append(entry)
        return 200, None

    async def _unreact(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        entry = (ctx.params["emoji"], self.bot_user.id)
        if entry in msg.reactions:
            msg.reactions.remove(entry)
        return 200, None

    async def _clear_reactions(self, ctx: _Ctx) -> tuple[int, Any]:
        self._message_in(ctx.params["channel_id"], ctx.params["message_id"]).reactions.clear()
        return 200, None

    async def _get_reactions(self, ctx: _Ctx) -> tuple[int, Any]:
        msg = self._message_in(ctx.params["channel_id"], ctx.params["message_id"])
        return 200, [self.users[u].payload() for e, u in msg.reactions if e == ctx.params["emoji"]]

    # ------------------------------------------------------------------ handlers: threads

    async def _create_thread(self, ctx: _Ctx) -> tuple[int, Any]:
        parent = self._channel(ctx.params["channel_id"])
        if parent.guild_id is None or parent.is_thread:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type", "not_found")
        body = ctx.json if isinstance(ctx.json, dict) else {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _HTTPError(
                400, 50035, f"Invalid Form Body: thread name {name!r} must be 1..100", "invalid_form_body"
            )
        mid = ctx.params.get("message_id")
        if mid is not None:
            self._message_in(str(parent.id), mid)
            tid, ttype = int(mid), 11
            if tid in self.channels:
                raise _HTTPError(
                    400, 160004, "A thread has already been created for this message", "invalid_form_body"
                )
        else:
            tid, ttype = self.snowflake(), int(body.get("type") or 11)
        thread = FakeChannel(
            tid,
            name,
            ttype,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            members={self.bot_user.id},
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            created_at=self.clock.iso(),
        )
        self.channels[tid] = thread
        self.guilds[parent.guild_id].channel_ids.append(tid)
        payload = self._channel_payload(thread)
        member = {
            "id": str(tid),
            "user_id": str(self.bot_user.id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }
        await self._dispatch_quiet(
            "THREAD_CREATE", {**payload, "newly_created": True, "member": member}, intent=INTENT_GUILDS
        )
        return 201, {**payload, "member": member}

    def _thread(self, ctx: _Ctx) -> FakeChannel:
        chan = self._channel(ctx.params["channel_id"])
        if not chan.is_thread:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type", "not_found")
        return chan

    async def _thread_member_add(self, ctx: _Ctx) -> tuple[int, Any]:
        thread = self._thread(ctx)
        user = self._user(ctx.params["user_id"])
        guild = self.guilds[thread.guild_id] if thread.guild_id else None
        if guild is None or user.id not in guild.member_ids:
            raise _HTTPError(404, 10007, "Unknown Member", "not_found")
        thread.members.add(user.id)
        return 200, None

    async def _thread_member_remove(self, ctx: _Ctx) -> tuple[int, Any]:
        thread = self._thread(ctx)
        thread.members.discard(self._user(ctx.params["user_id"]).id)
        return 200, None

    def _thread_member_payload(self, thread: FakeChannel, uid: int) -> Json:
        return {"id": str(thread.id), "user_id": str(uid), "join_timestamp": thread.created_at, "flags": 0}

    async def _thread_members(self, ctx: _Ctx) -> tuple[int, Any]:
        thread = self._thread(ctx)
        return 200, [self._thread_member_payload(thread, u) for u in sorted(thread.members)]

    async def _thread_member(self, ctx: _Ctx) -> tuple[int, Any]:
        thread = self._thread(ctx)
        user = self._user(ctx.params["user_id"])
        if user.id not in thread.members:
            raise _HTTPError(404, 10007, "Unknown Member", "not_found")
        return 200, self._thread_member_payload(thread, user.id)

    async def _active_threads(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx.params["guild_id"])
        threads = [t for t in self.threads if t.guild_id == guild.id and not t.deleted and not t.archived]
        return 200, {
            "threads": [self._channel_payload(t) for t in threads],
            "members": [
                self._thread_member_payload(t, self.bot_user.id)
                for t in threads
                if self.bot_user.id in t.members
            ],
        }

    # ------------------------------------------------------------------ handlers: guilds

    async def _get_guild(self, ctx: _Ctx) -> tuple[int, Any]:
        payload = self.guild_create_payload(self._guild(ctx.params["guild_id"]))
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large"):
            payload.pop(key, None)
        return 200, payload

    async def _guild_channels(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx.params["guild_id"])
        chans = [self.channels[c] for c in guild.channel_ids]
        return 200, [self._channel_payload(c) for c in chans if not c.deleted and not c.is_thread]

    async def _guild_roles(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, [self._guild(ctx.params["guild_id"]).everyone_role()]

    async def _guild_members(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx.params["guild_id"])
        after = int(ctx.query.get("after", 0))
        members = [self.users[u] for u in sorted(guild.member_ids) if u > after]
        return 200, [u.member_payload() for u in members[: int(ctx.query.get("limit", 1))]]

    async def _guild_member(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx.params["guild_id"])
        user = self._user(ctx.params["user_id"])
        if user.id not in guild.member_ids:
            raise _HTTPError(404, 10007, "Unknown Member", "not_found")
        return 200, user.member_payload()


# --------------------------------------------------------------------------------------------- helpers


class _ClientErrorHandler(logging.Handler):
    """Turns discord.py ERROR logs ("Ignoring exception in command ...") into ``client_error`` failures."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        detail = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            cause = exc.__cause__ or exc
            detail += f": {type(cause).__name__}: {cause}"
        self.fake.record_failure("client_error", detail)


def _check_option(command: str, decl: Json, value: Any) -> None:
    """Raise ``ValueError`` for a value the Discord client would not let a user submit."""
    name = decl["name"]
    choices = decl.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(
            f"/{command} {name}={value!r} is not one of the choices {[c['value'] for c in choices]}"
        )
    if isinstance(value, int | float) and not isinstance(value, bool):
        lo, hi = decl.get("min_value"), decl.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"/{command} {name}={value!r} is outside {lo}..{hi}")
    if isinstance(value, str) and decl.get("type") == 3:
        lo, hi = decl.get("min_length", 0), decl.get("max_length", 6000)
        if not lo <= len(value) <= hi:
            raise ValueError(f"/{command} {name}={value!r} length is outside {lo}..{hi}")


def _id(obj: Any) -> int:
    return int(obj.id) if hasattr(obj, "id") else int(obj)


def check_patch_points() -> None:
    """Raise ``RuntimeError`` if discord.py lost ``Route.BASE`` or ``DiscordWebSocket.DEFAULT_GATEWAY``."""
    import discord.gateway
    import discord.http

    base = getattr(discord.http.Route, "BASE", None)
    gateway = getattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None)
    if not isinstance(base, str) or not base.startswith(("https://", "http://")):
        raise RuntimeError(
            f"discord.http.Route.BASE is gone or changed ({base!r}); the fake cannot patch REST"
        )
    if not isinstance(gateway, yarl.URL):
        raise RuntimeError(
            f"discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY is gone or changed ({gateway!r}); "
            "the fake cannot patch the gateway"
        )


class BotRunner:
    """Starts discord.py clients against a :class:`FakeDiscord` and closes them cleanly.

    ``bot = await runner.start(factory)`` where ``factory`` is a client instance or a zero-argument
    callable returning one; ``await runner.restart(factory)`` closes the current client and starts a new
    one (persistent views and DynamicItems must survive this); ``await runner.close()`` stops it.
    """

    def __init__(self, fake: FakeDiscord, *, token: str = "fake-bot-token", fast_ready: bool = True) -> None:
        self.fake = fake
        self.token = token
        self.fast_ready = fast_ready
        self.client: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, factory: Any, *, timeout: float = HANG_GUARD) -> Any:
        """Build (if callable) and start the client; return it once ``is_ready()``."""
        import discord

        if self.client is not None:
            raise RuntimeError("a client is already running; use restart()")
        client = factory() if not isinstance(factory, discord.Client) and callable(factory) else factory
        if self.fast_ready and client._connection.guild_ready_timeout > 0.1:
            client._connection.guild_ready_timeout = 0.05
        self.client = client
        self._task = asyncio.create_task(client.start(self.token), name="fake-discord-bot")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not client.is_ready():
            if self._task.done():
                exc = self._task.exception()
                self.client, self._task = None, None
                raise RuntimeError(f"client stopped before it was ready: {exc!r}") from exc
            if loop.time() > deadline:
                await self.close()
                raise FakeDiscordTimeout(f"client not ready after {timeout}s; failures: {self.fake.failures}")
            await asyncio.sleep(0.005)
        return client

    async def close(self) -> None:
        """Close the running client (if any) and wait for its task."""
        client, task = self.client, self._task
        self.client, self._task = None, None
        if client is None:
            return
        crashed = task.exception() if task is not None and task.done() and not task.cancelled() else None
        if crashed is not None:
            self.fake.record_failure("client_error", f"the client task died during the test: {crashed!r}")
        await client.close()
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(task, 5)
            except (asyncio.CancelledError, TimeoutError):
                task.cancel()
            except Exception as exc:  # noqa: BLE001 - an error while closing is reported, not raised
                self.fake.record_failure("client_error", f"the client task failed while closing: {exc!r}")
        # let the fake's websocket handler notice the close
        for _ in range(50):
            if not self.fake.connected:
                break
            await asyncio.sleep(0.01)

    async def restart(self, factory: Any, *, timeout: float = HANG_GUARD) -> Any:
        """Close the current client and start a new one from ``factory``."""
        await self.close()
        return await self.start(factory, timeout=timeout)
