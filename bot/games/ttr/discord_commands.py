"""Ticket to Ride's own slash commands: ``/play draw|claim|tickets|keep|station|tunnel|passenger``,
with the autocompletes that offer routes, payments, cities and tickets from the seat's legal moves.
They join the generic ``/play`` group through :meth:`TTRDiscordUI.play_commands`
(:mod:`bot.games.ttr.discord_ui`); every move they make goes through :meth:`GameUI.act`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from bot.discord_app.choices import GAME_DESC
from bot.discord_app.game_ui import PlayContext, SlashCommand
from bot.discord_app.interaction import who
from bot.discord_app.ui import match
from bot.games.ttr.words import card_count, card_name
from bot.names import fold
from bot.service import Loaded
from lang import M, _, using
from rules.protocol import Action
from rules.ttr.actions import BuildStation, ClaimRoute, KeepTickets, StartJourney, TravelRoute
from rules.ttr.board import Track
from rules.ttr.game import TTRGame

DRAW_CHOICES = [app_commands.Choice(name="deck", value="deck")] + [
    app_commands.Choice(name=f"face-up card {i}", value=f"face {i}") for i in range(5)
]
PASSENGER_STEPS = [app_commands.Choice(name=step, value=step) for step in ("start", "travel", "stop")]


def _card_phrase(cards: tuple[tuple[str, int], ...]) -> str:
    return " + ".join(card_count(c, n) for c, n in cards) or _("no cards")


async def _legal(ctx: PlayContext, interaction: discord.Interaction, gid: int) -> list[Action]:
    """The user's legal moves in game ``gid``, asked from the server they write from: a member
    who is not in the game gets none (and the move then says why), not "no such game"."""
    player, where = who(interaction)
    return await ctx.ui.service.legal_actions(gid, player, where=where)


def _track(loaded: Loaded, text: str) -> Track | None:
    if not isinstance(loaded.game, TTRGame):
        return None
    board = loaded.game.board
    key = text.strip().split()[-1] if text.strip() else ""
    track = board.track_by_id.get(key.lower())
    if track is not None:
        return track
    cands = [t for t in board.tracks if match(text, t.label) or match(text, f"{t.b}–{t.a}")]
    if len({t.pair_id for t in cands}) != 1:
        return None  # unknown or ambiguous: the autocomplete list gives exact ids
    claims = loaded.game.view(None).get("claims") or {}
    free = [t for t in cands if t.id not in claims]
    return (free or cands)[0]


def _city(loaded: Loaded, text: str) -> str | None:
    if not isinstance(loaded.game, TTRGame):
        return None
    for name in loaded.game.board.cities:
        if fold(name) == fold(text.strip().replace("_", " ")):
            return str(name)
    return None


async def _claim(
    ctx: PlayContext,
    interaction: discord.Interaction,
    game: int | None,
    route: str,
    payment: str | None,
    passenger: str | None,
) -> None:
    opened = await ctx.open_loaded(interaction, game)
    if opened is None:
        return
    gid, loaded = opened
    track = _track(loaded, route)
    if track is None:
        await ctx.ui.error(
            interaction,
            M("There is no route {route} on this board; pick one from the list.", route=repr(route)),
        )
        return
    if payment is None:
        legal = [
            a
            for a in await _legal(ctx, interaction, gid)
            if isinstance(a, ClaimRoute) and a.track == track.id
        ]
        # Without a legal payment, try the obvious one so the rules explain what is missing.
        obvious = f"{track.colour_name if track.colour_name != 'gray' else 'locomotive'}={track.length}"
        pay = ",".join(f"{c}={n}" for c, n in legal[0].cards) if legal else obvious
    else:
        pay = payment.replace(" ", "")
    text = f"claim {track.id} {pay}"
    if passenger:
        text += f" passenger={passenger.replace(' ', '_')}"
    await ctx.ui.act(interaction, gid, text)


async def _station(
    ctx: PlayContext, interaction: discord.Interaction, game: int | None, city: str, payment: str | None
) -> None:
    opened = await ctx.open_loaded(interaction, game)
    if opened is None:
        return
    gid, loaded = opened
    name = _city(loaded, city)
    if name is None:
        await ctx.ui.error(interaction, M("There is no city {city} on this board.", city=repr(city)))
        return
    if payment is None:
        legal = [
            a for a in await _legal(ctx, interaction, gid) if isinstance(a, BuildStation) and a.city == name
        ]
        payment = ",".join(f"{c}={n}" for c, n in legal[0].cards) if legal else "red=1"
    await ctx.ui.act(interaction, gid, f"station {name.replace(' ', '_')} {payment.replace(' ', '')}")


def play_commands(ctx: PlayContext) -> Sequence[SlashCommand]:
    """The ``/play`` subcommands of Ticket to Ride, bound to the generic ``/play`` cog's helpers."""

    @app_commands.command(name="draw", description="Draw a train card from the deck or a face-up slot")
    @app_commands.describe(card="deck, or a face-up slot 0-4", game=GAME_DESC)
    @app_commands.choices(card=DRAW_CHOICES)
    async def draw(interaction: discord.Interaction, card: str = "deck", game: int | None = None) -> None:
        await ctx.act(interaction, game, f"draw {card}")

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="Route (type a city)",
        payment="Cards to pay",
        passenger="Märklin: city for a passenger",
        game=GAME_DESC,
    )
    async def claim(
        interaction: discord.Interaction,
        route: str,
        payment: str | None = None,
        passenger: str | None = None,
        game: int | None = None,
    ) -> None:
        async def run(target: discord.Interaction, gid: int | None) -> None:
            await _claim(ctx, target, gid, route, payment, passenger)

        await ctx.on_my_game(interaction, game, run)

    @claim.autocomplete("route")
    async def route_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        if loaded is None or not isinstance(loaded.game, TTRGame):
            return []
        claimable = {
            a.track for a in await _legal(ctx, interaction, loaded.row.id) if isinstance(a, ClaimRoute)
        }
        claims = loaded.game.view(None).get("claims", {})
        out: list[app_commands.Choice[str]] = []
        tracks = sorted(loaded.game.board.tracks, key=lambda t: (t.id not in claimable, t.label))
        for t in tracks:
            if t.id in claims:
                continue
            with using(interaction.locale):  # an autocomplete answers in the reader's language too
                colour = card_name(t.colour_name)
                label = (
                    _(
                        "{route} ({length} {colour}, tunnel) {id}",
                        route=t.label,
                        length=t.length,
                        colour=colour,
                        id=t.id,
                    )
                    if t.tunnel
                    else f"{t.label} ({t.length} {colour}) {t.id}"
                )
            if match(current, label, t.id):
                out.append(
                    app_commands.Choice(name=("✓ " if t.id in claimable else "") + label[:95], value=t.id)
                )
            if len(out) >= 25:
                break
        return out

    @claim.autocomplete("payment")
    async def payment_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        route = str(getattr(interaction.namespace, "route", "") or "")
        if loaded is None or not route:
            return []
        track = _track(loaded, route)
        if track is None:
            return []
        out = []
        for a in await _legal(ctx, interaction, loaded.row.id):
            if isinstance(a, ClaimRoute) and a.track == track.id:
                value = ",".join(f"{c}={n}" for c, n in a.cards)
                if match(current, value):
                    out.append(app_commands.Choice(name=_card_phrase(a.cards)[:100], value=value[:100]))
        return list({c.value: c for c in out}.values())[:25]

    @app_commands.command(name="tickets", description="Draw destination tickets")
    @app_commands.describe(short="Märklin: short tickets", long="Märklin: long tickets", game=GAME_DESC)
    async def tickets(
        interaction: discord.Interaction,
        short: app_commands.Range[int, 0, 4] | None = None,
        long: app_commands.Range[int, 0, 4] | None = None,
        game: int | None = None,
    ) -> None:
        text = (
            "tickets draw"
            if short is None and long is None
            else f"tickets draw short={short or 0} long={long or 0}"
        )
        await ctx.act(interaction, game, text)

    @app_commands.command(name="keep", description="Keep tickets from your offer (ids separated by commas)")
    @app_commands.describe(
        tickets="Ticket ids, e.g. EU-T01,EU-T07 (or use the menu in /view hand)", game=GAME_DESC
    )
    async def keep(interaction: discord.Interaction, tickets: str, game: int | None = None) -> None:
        ids = ",".join(t.strip() for t in tickets.replace(" ", ",").split(",") if t.strip())
        await ctx.act(interaction, game, f"tickets keep {ids}")

    @keep.autocomplete("tickets")
    async def keep_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        if loaded is None:
            return []
        out = []
        for a in await _legal(ctx, interaction, loaded.row.id):
            if isinstance(a, KeepTickets):
                value = ",".join(a.ids)
                if match(current, value):
                    out.append(app_commands.Choice(name=value[:100], value=value[:100]))
        return out[:25]

    @app_commands.command(name="station", description="Build a station (Europe)")
    @app_commands.describe(city="City", payment="Cards to pay", game=GAME_DESC)
    async def station(
        interaction: discord.Interaction, city: str, payment: str | None = None, game: int | None = None
    ) -> None:
        async def run(target: discord.Interaction, gid: int | None) -> None:
            await _station(ctx, target, gid, city, payment)

        await ctx.on_my_game(interaction, game, run)

    @station.autocomplete("city")
    async def city_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        if loaded is None or not isinstance(loaded.game, TTRGame):
            return []
        names = sorted(loaded.game.board.city_names)
        return [app_commands.Choice(name=n, value=n) for n in names if match(current, n)][:25]

    @station.autocomplete("payment")
    async def station_payment_ac(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        city = str(getattr(interaction.namespace, "city", "") or "")
        if loaded is None or not city:
            return []
        name = _city(loaded, city)
        out = []
        for a in await _legal(ctx, interaction, loaded.row.id):
            if isinstance(a, BuildStation) and a.city == name:
                value = ",".join(f"{c}={n}" for c, n in a.cards)
                out.append(app_commands.Choice(name=_card_phrase(a.cards)[:100], value=value[:100]))
        return list({c.value: c for c in out}.values())[:25]

    @app_commands.command(name="tunnel", description="Pay the tunnel surcharge or withdraw")
    @app_commands.describe(choice="How to pay (or withdraw)", game=GAME_DESC)
    async def tunnel(interaction: discord.Interaction, choice: str, game: int | None = None) -> None:
        text = choice if choice.startswith("tunnel ") else f"tunnel {choice}"
        await ctx.act(interaction, game, text)

    @tunnel.autocomplete("choice")
    async def tunnel_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        if loaded is None:
            return []
        out = []
        for a in await _legal(ctx, interaction, loaded.row.id):
            if a.kind in ("tunnel_pay", "tunnel_withdraw") and match(current, a.to_text()):
                out.append(app_commands.Choice(name=a.to_text()[:100], value=a.to_text()[:100]))
        return out[:25]

    @app_commands.command(
        name="passenger", description="Märklin: move a passenger one step (start, travel a route, stop)"
    )
    @app_commands.describe(
        step="start: choose the passenger; travel: one more route; stop: end the journey",
        where="start: the passenger's city; travel: the route (type a city)",
        game=GAME_DESC,
    )
    @app_commands.choices(step=PASSENGER_STEPS)
    async def passenger(
        interaction: discord.Interaction, step: str, where: str | None = None, game: int | None = None
    ) -> None:
        # A passenger moves route by route (rules/ttr/actions.py: StartJourney, TravelRoute,
        # EndJourney), the same steps as the "Move a passenger" button's menus.
        if step == "stop":
            await ctx.act(interaction, game, "passenger stop")
            return
        if not (where or "").strip():
            await ctx.ui.defer(interaction)
            await ctx.ui.error(
                interaction, M("Say where: the passenger's city to start, the route to travel.")
            )
            return
        place = (where or "").strip()
        await ctx.act(
            interaction, game, f"passenger {step} " + (place.replace(" ", "_") if step == "start" else place)
        )

    @passenger.autocomplete("where")
    async def passenger_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The cities a passenger may start from, or the routes the travelling passenger may take,
        as the chosen step needs (the seat's legal moves, so nothing offered is refused)."""
        loaded = await ctx.ui.game_for_autocomplete(interaction)
        step = str(getattr(interaction.namespace, "step", "") or "")
        if loaded is None or not isinstance(loaded.game, TTRGame) or step not in ("start", "travel"):
            return []
        board = loaded.game.board
        out: list[app_commands.Choice[str]] = []
        for a in await _legal(ctx, interaction, loaded.row.id):
            if step == "start" and isinstance(a, StartJourney) and match(current, a.city):
                out.append(app_commands.Choice(name=a.city[:100], value=a.city[:100]))
            elif step == "travel" and isinstance(a, TravelRoute):
                track = board.track_by_id.get(a.track.lower())
                label = f"{track.label} ({track.length}) {a.track}" if track is not None else a.track
                if match(current, label, a.track):
                    out.append(app_commands.Choice(name=label[:100], value=a.track))
        return out[:25]

    return [draw, claim, tickets, keep, station, tunnel, passenger]
