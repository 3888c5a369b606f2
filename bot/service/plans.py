"""Planned turns (issue 31): a player plans, while it is not their turn, what to play when it comes.

The plan is private and one per seat per game, kept through the storage port (it survives a
restart). When the seat's turn comes (another seat has moved since the plan was made and the
game says the seat stands at the start of a turn, :attr:`rules.plans.PlanRules.ready`) it is
evaluated at once, under the game's lock, on one state: the first step whose condition holds is
played move by move through the same path as a click, with the player's reference (so the log,
the thread and the turn timer treat it as the player's move), and the player is told privately
what was played. A move that upsets a plan (:attr:`rules.plans.PlanRules.upset`: a route it
claims taken, the last round begun) drops it and tells its player why; the player is then pinged
as usual when the turn comes. Nothing public, and no log line, says that a plan exists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.api import find_front_end
from bot.service.common import NO_SPACE, Lines, Loaded, ServiceError, log
from bot.service.takeback import ServiceTakeBack
from bot.store.rows import ACTIVE
from bot.stream import Note
from lang import Joined, M, Msg
from lang.refusals import refusal_of
from rules import plans
from rules.errors import IllegalAction
from rules.games import find_game
from rules.plans import Disarm, PlanRules, Step
from rules.protocol import Action, Event, Game

# Why a plan was dropped, as its player reads it.
DISARM_WORDS: dict[str, Msg] = {
    plans.ROUTE_TAKEN: M("{name} claimed {route}, which your plan needed."),
    plans.LAST_ROUND: M("{name} began the last round."),
    plans.TUNNEL: M("{route} is a tunnel: its extra cards are out, so pay them or withdraw yourself."),
    plans.TICKETS: M("you have tickets to choose, which a plan cannot do for you."),
    plans.NOT_READY: M("your turn began halfway through a move the plan does not cover."),
    plans.NO_STEP: M("none of its steps could be played when your turn came."),
}


def _rules(game_name: str) -> PlanRules | None:
    return find_game(game_name).plans


def step_words(game_name: str, config: Mapping[str, object], step: Step) -> Msg | str:
    """One step as its player reads it: the game's words when it has them, else its text."""
    worded = find_front_end(game_name).words.plan_step_words(step, config)
    return worded if worded is not None else step.to_text()


def plan_words(game_name: str, config: Mapping[str, object], steps: Sequence[Step]) -> Msg:
    """The whole plan, one numbered line per step ("1. … 2. …: the first that can be played")."""
    lines: list[Msg | str] = []
    for i, step in enumerate(steps, 1):
        lines.append(Joined("", parts=(f"{i}. ", step_words(game_name, config, step))))
    return Joined("\n", parts=tuple(lines))


class ServicePlans(ServiceTakeBack):
    """Planned turns (see :class:`bot.service.GameService`)."""

    # ---- what a player asks ----------------------------------------------------------------
    async def _plan_seat(self, game_id: int, player: str, where: str | None) -> tuple[Loaded, int, PlanRules]:
        loaded = await self._reach(game_id, player, where)
        self._check_active(loaded)
        row = loaded.row
        seat = row.seat_of(player)
        if seat is None:
            raise ServiceError("not_your_game", M("You are not playing in game #{game}.", game=row.number))
        rules = _rules(row.game_name)
        if rules is None:
            raise ServiceError("no_plans", M("Game #{game} has no planned turns.", game=row.number))
        return loaded, seat, rules

    async def plan_of(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> tuple[Step, ...]:
        """``player``'s planned turn in the game (empty: none). Only for private replies."""
        async with self.lock(game_id):
            loaded, seat, _ = await self._plan_seat(game_id, player, where)
            armed = (await self._plans(loaded)).get(seat)
            return armed[0] if armed is not None else ()

    async def plan_choices(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> list[Step]:
        """Steps worth offering ``player`` in a menu now (claims their hand could pay, the draws)."""
        async with self.lock(game_id):
            loaded, seat, rules = await self._plan_seat(game_id, player, where)
            assert loaded.game is not None
            return rules.choices(loaded.game, seat)

    async def set_plan(
        self, game_id: int, player: str, steps: str | Sequence[Step], *, where: str | None = NO_SPACE
    ) -> tuple[Step, ...]:
        """Plan ``player``'s next turn (replacing any plan): ``steps`` in order, or their text
        (``claim EU034 red=3,locomotive=1; locomotive; deck``). Returns the plan as kept."""
        async with self.lock(game_id):
            loaded, seat, rules = await self._plan_seat(game_id, player, where)
            game = loaded.game
            assert game is not None
            try:
                parsed = plans.parse_plan(rules, steps) if isinstance(steps, str) else tuple(steps)
                if not parsed:
                    raise IllegalAction("empty_plan", "A plan needs at least one step.")
                if len(parsed) > plans.MAX_STEPS:
                    raise IllegalAction(
                        "plan_too_long", f"A plan has at most {plans.MAX_STEPS} steps.", steps=plans.MAX_STEPS
                    )
                for step in parsed:
                    if step.kind not in rules.kinds:
                        raise IllegalAction("unknown_step", f"{step.kind!r} is not a step this game plans.")
                    rules.check(game, seat, step)
            except IllegalAction as exc:
                raise ServiceError(exc.code, refusal_of(exc)) from None
            await self._keep_plan(loaded, seat, parsed)
            return parsed

    async def add_plan_step(
        self, game_id: int, player: str, step: str, *, where: str | None = NO_SPACE
    ) -> tuple[Step, ...]:
        """Add one step (its text) at the end of ``player``'s plan (a menu's choice)."""
        async with self.lock(game_id):
            loaded, seat, rules = await self._plan_seat(game_id, player, where)
            game = loaded.game
            assert game is not None
            armed = (await self._plans(loaded)).get(seat)
            steps = armed[0] if armed is not None else ()
            if len(steps) >= plans.MAX_STEPS:
                raise ServiceError(
                    "plan_too_long", M("A plan has at most {steps} steps.", steps=plans.MAX_STEPS)
                )
            try:
                parsed = rules.parse_step(step)
                if parsed.kind not in rules.kinds:
                    raise IllegalAction("unknown_step", f"{parsed.kind!r} is not a step this game plans.")
                rules.check(game, seat, parsed)
            except IllegalAction as exc:
                raise ServiceError(exc.code, refusal_of(exc)) from None
            kept = (*steps, parsed)
            await self._keep_plan(loaded, seat, kept)
            return kept

    async def clear_plan(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> bool:
        """Drop ``player``'s plan; False when there was none."""
        async with self.lock(game_id):
            loaded, seat, _ = await self._plan_seat(game_id, player, where)
            known = await self._plans(loaded)
            if seat not in known:
                return False
            await self.storage.set_plan(loaded.row.id, seat, None)
            known.pop(seat, None)
            return True

    async def _keep_plan(self, loaded: Loaded, seat: int, steps: tuple[Step, ...]) -> None:
        row = loaded.row
        await self.storage.set_plan(row.id, seat, {"steps": plans.to_json(steps), "seq": row.seq})
        (await self._plans(loaded))[seat] = (steps, row.seq)

    async def _plans(self, loaded: Loaded) -> dict[int, tuple[tuple[Step, ...], int]]:
        """The game's plans, read once per loaded game (a plan no longer readable is dropped)."""
        if loaded.plans is None:
            rules = _rules(loaded.row.game_name)
            found: dict[int, tuple[tuple[Step, ...], int]] = {}
            stored = await self.storage.plans(loaded.row.id) if rules is not None else {}
            for seat, data in stored.items():
                try:
                    assert rules is not None and isinstance(data, dict)
                    seq = data.get("seq")
                    found[seat] = (
                        plans.from_json(rules, data.get("steps")),
                        seq if isinstance(seq, int) else 0,
                    )
                except (IllegalAction, AssertionError):
                    log.error("game=%s seat=%s a stored plan could not be read; dropped", loaded.row.id, seat)
                    await self.storage.set_plan(loaded.row.id, seat, None)
            loaded.plans = found
        return loaded.plans

    async def _last_move(self, loaded: Loaded) -> tuple[int, int] | None:
        if loaded.last_move is None and loaded.row.seq > 0:
            last = await self.storage.actions(loaded.row.id, since_seq=loaded.row.seq - 1)
            if last:
                loaded.last_move = (last[-1].seq, last[-1].seat)
        return loaded.last_move

    # ---- hooks called by ServiceTurns ------------------------------------------------------
    async def _after_move(
        self,
        loaded: Loaded,
        seat: int,
        before: Game,
        after: Game,
        action: Action,
        events: list[Event],
        lines: Lines,
    ) -> None:
        """A move was committed: drop the plans it upsets (their players are told why)."""
        loaded.last_move = (loaded.row.seq, seat)
        rules = _rules(loaded.row.game_name)
        if rules is None:
            return
        known = await self._plans(loaded)
        for owner, (steps, _) in list(known.items()):
            try:
                why = rules.upset(before, after, seat, action, events, owner, steps)
            except Exception:  # noqa: BLE001 - a plan must never break the move that is committed
                log.exception("game=%s a plan check failed; the plan is dropped", loaded.row.id)
                why = Disarm(plans.NOT_READY)
            if why is not None:
                await self._drop(loaded, owner, why, lines)

    async def _drop(self, loaded: Loaded, seat: int, why: Disarm, lines: Lines) -> None:
        row = loaded.row
        await self.storage.set_plan(row.id, seat, None)
        (await self._plans(loaded)).pop(seat, None)
        player = row.seats[seat].player
        if player is None:
            return
        lines.notes.append(
            Note(
                seat,
                player,
                M(
                    "Your plan for game #{game} was dropped: {why}",
                    game=row.number,
                    why=self._why(loaded, why),
                ),
            )
        )

    def _why(self, loaded: Loaded, why: Disarm) -> Msg:
        template = DISARM_WORDS.get(why.code, DISARM_WORDS[plans.NOT_READY])
        facts: dict[str, object] = dict(why.facts)
        who = facts.get("seat")
        names = [s.name for s in loaded.row.seats]
        facts["name"] = names[who] if isinstance(who, int) and 0 <= who < len(names) else "?"
        return M(template.id, **{k: v for k, v in facts.items() if k in ("name", "route")})

    async def _planned_move(self, loaded: Loaded, lines: Lines) -> bool:
        """Play the plan of a person whose turn has come. True if a move was made."""
        row, game = loaded.row, loaded.game
        rules = _rules(row.game_name)
        if rules is None or game is None or row.status != ACTIVE:
            return False
        known = await self._plans(loaded)
        if not known:
            return False
        last = await self._last_move(loaded)
        for seat in game.seats_to_act():
            player = row.seats[seat].player
            if seat not in known or player is None or row.seats[seat].is_ai:
                continue
            steps, armed = known[seat]
            if last is None or last[0] <= armed or last[1] == seat:
                continue  # made during this turn, or before: it is for the next one
            if not rules.ready(game, seat):
                blocked = rules.blocked(game, seat)
                if blocked is not None:
                    await self._drop(loaded, seat, blocked, lines)
                continue
            # the turn has come: the plan is spent whatever it plays (dropped first, so that a
            # crash halfway never plays it twice)
            await self.storage.set_plan(row.id, seat, None)
            known.pop(seat, None)
            chosen = plans.first_step(rules, game, seat, steps)
            if chosen is None:
                lines.notes.append(
                    Note(
                        seat,
                        player,
                        M(
                            "Your plan for game #{game} was dropped: {why}",
                            game=row.number,
                            why=DISARM_WORDS[plans.NO_STEP],
                        ),
                    )
                )
                continue
            return await self._play_step(loaded, seat, player, rules, steps, chosen, lines)
        return False

    async def _play_step(
        self,
        loaded: Loaded,
        seat: int,
        player: str,
        rules: PlanRules,
        steps: tuple[Step, ...],
        chosen: int,
        lines: Lines,
    ) -> bool:
        step = steps[chosen]
        played = 0
        while loaded.game is not None and not loaded.game.is_over():
            action = rules.next_action(loaded.game, seat, step, played)
            if action is None or seat not in loaded.game.seats_to_act():
                break
            try:
                await self._apply(loaded, seat, player, action, lines)
            except ServiceError as exc:
                log.error("game=%s seat=%s planned move refused (%s)", loaded.row.id, seat, exc.code)
                if exc.code == "write_failed":
                    self._stall(loaded.row.id)
                else:
                    await self._reload(loaded)
                break
            played += 1
        row = loaded.row
        said = M(
            "Your plan for game #{game} played step {n}: {step}.",
            game=row.number,
            n=chosen + 1,
            step=step_words(row.game_name, row.config, step),
        )
        stop = rules.stopped(loaded.game, seat, step) if loaded.game is not None else None
        if stop is not None:
            said = Joined(" ", parts=(said, self._why(loaded, stop)))
        lines.notes.append(Note(seat, player, said))
        return played > 0
