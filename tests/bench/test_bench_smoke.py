"""Every benchmark in ``bench/`` runs at smoke size, so that none rots unseen.

Each ``bench/bench_*.py`` is run as a script (``python bench/bench_X.py --smoke``, from the
repository root, as a person runs it) and must exit 0 and print its figures and its budget lines,
each verdict marked as not a measurement. A smoke run fails only when the bench crashes or hangs,
never because a sample of a few seconds misses a budget (see ``bench/harness.py``). A new bench
cannot be forgotten: every ``bench/bench_*.py`` must have its expected lines here.

The timeout of each run is a hang guard only (a smoke run takes seconds; the harness itself ends a
smoke run that outlasts ``SMOKE_LIMIT``); nothing here waits on time. The harness's own promise, that
an asyncio bench which crashes ends with a non-zero exit even when threads are left behind, is
tested on small scripts and on the crash that once hung ``bench_e2e.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
#: Seconds before a run is taken for hung (a smoke run takes seconds; this only keeps CI from hanging).
HANG_GUARD = 600.0
SMOKE = r" \(smoke size: not a measurement\)"
N = r"[\d.]+"  # a figure
#: Benches whose smoke run takes more than about 10 s on a busy 2-core machine (each starts a bot).
SLOW = {"bench_e2e.py", "bench_load.py", "bench_web.py", "bench_pg.py", "bench_cold.py"}

#: Per bench, the lines (regular expressions, each matched against a whole line) its smoke run must
#: print: its figures and its budget lines.
EXPECTED: dict[str, list[str]] = {
    "bench_ai.py": [
        rf"usa-2: search won {N}/1 = \d+% \(95% CI \d+%-\d+%\); fair share 50%; mean thinking {N} CPU s per move",
        rf"usa-2 target at least 70%: (met|NOT met) by the point estimate; the 95% interval (clears|reaches) it{SMOKE}",
        rf"fc-2: search won {N}/1 = \d+% .*",
        rf"fc-2 target above the fair share 50%: (met|NOT met) by the point estimate; .*{SMOKE}",
        rf"switzerland-3 target above the fair share 33%: (met|NOT met) by the point estimate; .*{SMOKE}",
    ],
    "bench_cold.py": [
        rf"run 1: start -> gateway connected {N} s, -> first board posted {N} s; first click -> its board"
        rf" {N} ms, second click -> its board {N} ms; CPU of the bot and its workers over the run {N} s",
        rf"median of 1 starts: start -> connected {N} s, start -> first board posted {N} s, first click -> board"
        rf" {N} ms, second click -> board {N} ms, CPU {N} s{SMOKE}",
    ],
    "bench_e2e.py": [
        r"finished Switzerland 2-player game through Discord: public image bytes \d+ "
        rf"\({N} MB in \d+ images\), \d+ public messages, \d+ pings, \d+ turns",
        rf"hand pictures of 4 boards of a finished Switzerland 2-player game, \d+ presses of My hand "
        rf"\(everyone looks after every board\), \d+ turns: {N} MB uploaded, {N} MB if each press uploaded "
        rf"its picture \(\d+%\)",
        r"hand pictures of 4 boards of .*\(actor looks at the start of their turn\).*",
        rf"interaction -> board posted \(6 moves, SQLite file, fake Discord\): p50 {N} ms, p95 {N} ms, max {N} ms"
        rf"  \[budget p95 150 ms: (OK|OVER BUDGET){SMOKE}\]",
        rf"  first response \(defer\) of \d+ interactions: p50 {N} ms, p95 {N} ms, max {N} ms  \[Discord limit 3000 ms\]",
        rf"4 concurrent games in one service: \d+ human actions \(plus AI replies\) in {N} s = \d+ actions/s; "
        rf"per action p50 {N} ms, p95 {N} ms; 4 games finished",
        rf"3 concurrent games through Discord: 3 clicks in {N} s = \d+ clicks/s; click -> board p50 {N} ms, p95 {N} ms .*",
        rf"  first response \(defer\) under that load: p50 {N} ms, p95 {N} ms, max {N} ms; \d+ over Discord's 3 s limit",
    ],
    "bench_engines.py": [
        rf"usa +4 pure +{N} +{N} +{N} +1\.00",
        r"(budget: USA 4p conductor >= 2\.0x edwisdom's games/s -> not measured: .*"
        rf"|USA 4p games/s ratio conductor .*budget >= 2\.0x -> (within|OVER) budget){SMOKE}",
    ],
    "bench_faults.py": [
        r"bench_faults: seed 1 \(smoke size\), 4 games \(1 Europe, 1 USA, 1 Märklin, 1 First Class\), .*",
        r"  moves acknowledged +\d+",
        r"  SIGKILLs +\d+ \(\d+ during a write fault\), \d+ audits of the file",
        r"  write faults +\d+ windows, \d+ injected write failures .*",
        r"  games whose stored state differs from a replay of their log: 0",
        r"  acknowledged moves lost: 0",
        r"  games stalled after faults clear: 0",
        r"  games broken by a restart: 0",
        r"  unexpected events \(child crash, hang, refusal other than a failed write\): 0",
    ],
    "bench_fc_balance.py": [
        r"seed \d+ \(repeat this run with --seed \d+\); games per batch 2 to 2, looking at 2; .*",
        rf"(PASS|FAIL|UNDECIDED) \(a\) 2p most-chosen kind per turn offered \(.+\): {N}% \[95% {N}-{N}\] "
        rf"\(bound <= 80%; 2 games\){SMOKE}",
        rf"(PASS|FAIL|UNDECIDED) \(b\) 4p largest source of the winner's points \(.+\): {N}% \[95% {N}-{N}\] "
        rf"\(bound <= 30%; 2 games\){SMOKE}",
        rf"(PASS|FAIL|UNDECIDED) \(c\) 2p AI forbidden routes wins: {N}% \[95% {N}-{N}\] \(bound < 50\.0%; 2 games\){SMOKE}",
        rf"(PASS|FAIL|UNDECIDED) \(d\) 3p seat furthest from fair \(seat \d\): {N}% \[95% {N}-{N}\] "
        rf"\(bound 28\.3-38\.3%; 2 games\){SMOKE}",
        rf"\d+ of 16 bounds hold by their interval, \d+ fail, \d+ undecided{SMOKE}",
    ],
    "bench_firstclass.py": [
        rf"random 4-player playouts: {N} games/s \(4 games in {N} s\), \d+ actions/s \(\d+ actions\)",
        r"copy\(\) of a finished game p50: \d+ us",
        rf"render_player_board p50: {N} ms  \[no First Class budget; beside the board budget 15 ms p50: "
        rf"(within|above) \(ref\)\]{SMOKE}",
        rf"render_table p50: {N} ms  \[no First Class budget; .*\]{SMOKE}",
    ],
    "bench_load.py": [
        r"16 games prepared in [\d.]+ s before the bot starts \(seed 1\): 8 mid-game .*, 8 late-game .*",
        rf"first turn of each game after the restart \(the first move by command\), untimed: \d+ moves in {N} s; "
        r"\d+ games ready .*",
        r" 50 clicks/s offered, mid-game : [1-9]\d* sent in .*",
        r" 50 clicks/s offered, late-game: [1-9]\d* sent in .*",
        rf"mid-game CPU per click over all rates: bot process {N} ms \(event-loop thread {N} ms, .*",
        rf"late-game CPU per click over all rates: bot process {N} ms \(event-loop thread {N} ms, .*",
        rf"  mid-game  bot CPU per click {N} ms \(process {N}, event loop {N}, workers {N}\); "
        r"click -> board posted p50 \d+ ms, p95 \d+ ms \([1-9]\d* boards\)",
        rf"  late-game bot CPU per click {N} ms \(process {N}, event loop {N}, workers {N}\); "
        r"click -> board posted p50 \d+ ms, p95 \d+ ms \([1-9]\d* boards\)",
        rf"(PASS|FAIL){SMOKE}: 50 clicks/s with p95 < 150 ms from click to board posted on mid-game boards .*",
        rf"(PASS|FAIL){SMOKE}: 50 clicks/s with p95 < 150 ms from click to board posted on late-game boards .*",
        rf"(PASS|FAIL){SMOKE}: no event-loop stall over 50 ms \(longest \d+ ms, every rate and stage\)",
        rf"(PASS|FAIL){SMOKE}: the budget, 50 clicks/s with p95 < 150 ms from click to board posted, "
        r"on mid- and late-game boards alike",
    ],
    "bench_pg.py": [
        r"mid-game clicks: 6 live USA games, 6 moves in, 4 clicks each in each of 1 round\(s\) \(the ways take turns\),"
        r" 8 clicks in flight per process",
        rf"  1 process, SQLite +{N} clicks/s  p50 +{N} ms  p95 +{N} ms  CPU per click: bot +{N} ms"
        rf" \+ PostgreSQL +{N} ms = +{N} ms \( ?{N}x SQLite\)",
        rf"  2 processes, PostgreSQL +{N} clicks/s  p50 +{N} ms  p95 +{N} ms  CPU per click: .*",
        r"clicks/s held at p95 under 150 ms: 1 process, SQLite (\d+|none \(p95 \d+ ms\)), .*"
        rf"2 processes, PostgreSQL (\d+|none \(p95 \d+ ms\)){SMOKE}",
        rf"PostgreSQL CPU per click {N}x SQLite's: (within|OVER) the 1\.5x budget{SMOKE}",
    ],
    "bench_pairing.py": [
        r"32 players, tables of 4, boards usa, europe; budget 1\.0 s per round",
        rf"    3  swiss +8  {N} +\d+ +\d+ +\d+",
        rf"    6    cut +4  {N} +\d+ +\d+ +\d+",
        rf"    7  final +1  {N} +\d+ +\d+ +\d+",
        rf"64 players: worst Swiss round {N} s, worst cut round {N} s",
        rf"worst round {N} s, mean {N} s: (within|OVER) the 1\.0 s budget{SMOKE}",
    ],
    "bench_web.py": [
        r"web pages: 2 finished Europe 3-player games \(\d+ moves on average\), a Swiss event of 8 players; .*",
        *(
            rf"{kind} +cold: p50 {N} ms, p95 {N} ms, CPU {N} ms a page \(\d+\)  cached: p50 {N} ms, p95 {N} ms, CPU {N} ms a page \(\d+\)"
            for kind in ("game page", "game page at a move", "board picture", "event page")
        ),
        rf"budget: a cached page p95 under 50 ms: worst {N} ms, (within|OVER) budget{SMOKE}",
    ],
    "bench_render.py": [
        rf"usa 5p board +\d+ +{N} +{N} +\d+ +\d+   <= 15 ms, < 1\.5 MB: (OK|OVER){SMOKE}",
        rf"usa 5p board cold +\d+ +{N} +{N} +\d+ +\d+   <= 15 ms, < 1\.5 MB: (within|above) \(ref\)",
        r"usa 5p board old pipeline .*\(ref\)",
        r"usa 5p hand .*\(ref\)",
        r"usa 5p summary .*\(ref\)",
        r"europe 3p first 20 boards of the game: 20 boards \(one per turn\), \d+ KB in all, \d+ KB per board",
        r"First Class 4p table .*\(ref\)",
        r"First Class 4p player board .*\(ref\)",
        rf"boards: (all within budget|OVER BUDGET){SMOKE}",
    ],
    "bench_plans.py": [
        *(
            rf"{board} +{players} +{N} +{N} +{N} +-?\d+% +{N} +{N} +-?{N} +-?{N}"
            for board, players in (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
        ),
        rf"budget: plans save >= 20% of a person's visits on every board -> least -?\d+% \((within|OVER) budget\){SMOKE}",
    ],
    "bench_rules.py": [
        *(
            rf"{board} +{players} +\d+ +{N} +\d+ +{N} +{N}"
            for board, players in (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
        ),
        rf"budget: USA 4-player >= 240 games/s -> \d+ \((within|OVER) budget\){SMOKE}",
    ],
    "bench_worst.py": [
        *(rf"{board} +{N} +\d+ +{N} +{N} +\d+" for board in ("usa", "europe", "switzerland", "germany")),
        rf"europe 5p station choice \(3 stations, 12 tickets\) worst ms: {N}; whole final scoring with 15 "
        rf"stations worst ms: {N} .*",
        rf"dense synthetic graph 12 cities 28 tracks: longest trail length {N} ms .*",
        rf"all-Euler synthetic graph 12 cities 28 tracks: longest trail length {N} ms .*",
        rf"budget: longest trail < 5 ms: (within on every board|OVER on .+) \(worst {N} ms; "
        rf"(compiled|pure Python) engine .*\){SMOKE}",
        rf"budget: legal_actions < 1 ms, caches emptied: (within on every board|OVER on .+) .*{SMOKE}",
        rf"budget: station choice < 5 ms: (within|OVER) \({N} ms; .*\){SMOKE}",
    ],
}


def run_script(args: list[str], timeout: float = HANG_GUARD) -> subprocess.CompletedProcess[str]:
    """Run ``python *args`` from the repository root, as a person runs a bench."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_every_bench_is_smoke_tested() -> None:
    """A bench added to bench/ without its expected lines here fails, so none can be forgotten."""
    benches = {p.name for p in BENCH.glob("bench_*.py")}
    assert benches, f"no bench found in {BENCH}"
    assert benches == set(EXPECTED), (
        f"benches without smoke lines: {sorted(benches - set(EXPECTED))}; "
        f"smoke lines without a bench: {sorted(set(EXPECTED) - benches)}"
    )


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in sorted(EXPECTED)],
)
def test_bench_runs_at_smoke_size(name: str) -> None:
    done = run_script([str(BENCH / name), "--smoke"])
    out = done.stdout
    assert done.returncode == 0, (
        f"{name} --smoke exited {done.returncode}\n--- stdout (end)\n{out[-4000:]}"
        f"\n--- stderr (end)\n{done.stderr[-4000:]}"
    )
    lines = out.splitlines()
    missing = [
        pattern for pattern in EXPECTED[name] if not any(re.fullmatch(pattern, line) for line in lines)
    ]
    assert not missing, f"{name} --smoke did not print lines matching {missing}\n--- stdout\n{out[-6000:]}"


HARNESS_SCRIPT = """
import asyncio, sys, threading
sys.path.insert(0, {bench!r})
import harness

harness.GRACE = 3.0
harness.SMOKE_LIMIT = 3.0
never = threading.Event()


async def main() -> int:
    case = {case!r}
    if case in ("raise", "thread then raise", "thread then return"):
        if case != "raise":
            threading.Thread(target=never.wait, name="left behind").start()  # not a daemon: blocks exit
        if case == "thread then return":
            return 0
        raise TypeError("GameService.create_game() got an unexpected keyword argument 'creator_id'")
    if case == "task crash":
        async def boom() -> None:
            raise RuntimeError("a task of the asyncio machinery crashed")
        await asyncio.gather(boom(), asyncio.Event().wait())
    if case == "smoke hang":
        await asyncio.Event().wait()  # nothing ever sets it
    return 0


harness.run_async(main)
"""


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("raise", "unexpected keyword argument 'creator_id'"),
        ("thread then raise", "unexpected keyword argument 'creator_id'"),
        ("thread then return", "Timeout"),
        ("task crash", "a task of the asyncio machinery crashed"),
        ("smoke hang", "Timeout"),
    ],
)
def test_an_async_bench_that_fails_ends_with_a_non_zero_exit(tmp_path: Path, case: str, words: str) -> None:
    """Whatever ends a bench badly (an exception in it or in a task, a thread left that would keep
    the process alive, a smoke run that never ends) ends the process with exit 1 and says why."""
    script = tmp_path / "bench_case.py"
    script.write_text(textwrap.dedent(HARNESS_SCRIPT.format(bench=str(BENCH), case=case)))
    done = run_script([str(script), *(["--smoke"] if case == "smoke hang" else [])], timeout=120.0)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert words in done.stderr, done.stderr


def test_bench_e2e_ends_when_the_service_api_changes_under_it(tmp_path: Path) -> None:
    """The crash that once hung ``bench_e2e.py``: the service refusing its arguments while the
    bench's SQLite connection (a thread of its own) is open. The process must end, with exit 1."""
    script = tmp_path / "e2e_crash.py"
    script.write_text(
        textwrap.dedent(f"""
        import runpy, sys
        sys.path.insert(0, {str(BENCH)!r})
        sys.path.insert(0, {str(ROOT)!r})
        import harness
        harness.GRACE = 20.0
        import bot.service

        async def refuse(self, *args, **kwargs):
            raise TypeError("GameService.add_ai() got an unexpected keyword argument 'creator_id'")

        bot.service.GameService.add_ai = refuse
        bench = runpy.run_path({str(BENCH / "bench_e2e.py")!r}, run_name="bench_e2e")
        harness.run_async(lambda: bench["throughput"](2, __import__("pathlib").Path({str(tmp_path)!r})))
    """)
    )
    done = run_script([str(script)], timeout=120.0)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "unexpected keyword argument 'creator_id'" in done.stderr, done.stderr
    assert "Timeout" not in done.stderr, "the bench's own teardown left something running"
