"""A throwaway PostgreSQL cluster in a folder of its own, for the tests and the benches.

:class:`LocalCluster` runs the server programs of the machine (``initdb``, ``pg_ctl``; PostgreSQL
15's by default, ``CONDUCTOR_PG_BIN`` to choose others) on a Unix socket in its folder, with no TCP
port, so clusters of parallel test workers never meet. ``initdb`` refuses to run as root, so as
root the programs run as the ``postgres`` user (``runuser``), who then owns the folder. Anything
that stops the cluster from starting raises :class:`ClusterError` with the server's own log: a
test that needs PostgreSQL fails saying why, it never skips.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

DEFAULT_BIN = "/usr/lib/postgresql/15/bin"
SUPERUSER = "postgres"


class ClusterError(RuntimeError):
    """The throwaway cluster could not be made, started or stopped (the message says why)."""


def _bin_dir() -> Path:
    found = Path(os.environ.get("CONDUCTOR_PG_BIN") or DEFAULT_BIN)
    if not (found / "initdb").is_file() or not (found / "pg_ctl").is_file():
        raise ClusterError(
            f"PostgreSQL's server programs are not in {found} (initdb, pg_ctl): install the Debian package"
            " postgresql-15 (apt-get install -y postgresql-15), or set CONDUCTOR_PG_BIN to their folder."
        )
    return found


class LocalCluster:
    """One cluster under ``root`` (a new temporary folder if None). ``durable`` keeps fsync on
    (the benches measure what a real server pays); tests run without it."""

    def __init__(self, root: Path | None = None, *, durable: bool = False) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="conductor-pg-")) if root is None else root
        self.data = self.root / "data"
        self.socket_dir = self.root / "socket"
        self.log_file = self.root / "server.log"
        self.durable = durable
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(SUPERUSER)
            except KeyError as exc:
                raise ClusterError(
                    "initdb refuses to run as root and there is no 'postgres' user to run it as: install"
                    " postgresql-15 (it creates the user) or run the tests as an unprivileged user."
                ) from exc
            self._as = ["runuser", "-u", SUPERUSER, "--"]

    # ---- lifecycle -----------------------------------------------------------------------------
    def _run(self, *argv: str) -> None:
        try:
            done = subprocess.run(
                [*self._as, *argv], capture_output=True, text=True, timeout=120, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ClusterError(f"{Path(argv[0]).name} could not run: {exc}{self._log_tail()}") from exc
        if done.returncode != 0:
            raise ClusterError(
                f"{Path(argv[0]).name} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}"
                f"{self._log_tail()}"
            )

    def _log_tail(self) -> str:
        try:
            lines = self.log_file.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        except OSError:
            return ""
        return "\nserver log:\n" + "\n".join(lines) if lines else ""

    def init(self) -> None:
        """Make the cluster's folder and files (no server yet)."""
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        if self._as:
            for path in (self.root, self.socket_dir):
                shutil.chown(path, SUPERUSER)
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self) -> LocalCluster:
        """Start the server (initialising the cluster first if needed) and wait until it answers."""
        if not (self.data / "PG_VERSION").exists():
            self.init()
        options = [
            f"-k {self.socket_dir}",
            "-c listen_addresses=''",
            "-c max_connections=200",
            "-c shared_buffers=64MB",
        ]
        if not self.durable:
            # A test cluster is thrown away: nothing it writes needs to survive a power cut.
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log_file),
            "-o",
            " ".join(options),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate``: as if it crashed)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        """Stop the server if it runs and remove the folder."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(ClusterError):
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    # ---- databases -----------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        """The ``postgresql://`` address of ``database`` on this cluster (through its socket)."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}"

    def create_database(self, name: str) -> str:
        """A new empty database ``name``; returns its address."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
        return self.url(name)


_SHARED: LocalCluster | None = None


def shared_cluster() -> LocalCluster:
    """This process's throwaway cluster, started on first use and removed when the process exits
    (each pytest worker gets its own). ClusterError if it cannot start."""
    global _SHARED
    if _SHARED is None:
        cluster = LocalCluster()
        try:
            cluster.start()
        except BaseException:
            cluster.destroy()
            raise
        atexit.register(cluster.destroy)
        _SHARED = cluster
    return _SHARED
