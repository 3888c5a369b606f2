"""The storage port is the only way to the database: no SQL, no database driver and no raw
connection anywhere in the application outside ``bot/store/``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APPLICATION = ("bot", "rules", "render", "lang")

SQL = re.compile(
    r"\bSELECT\b[^\n]*\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b"
    r"|\bCREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\b|\bPRAGMA\b|\bBEGIN\s+IMMEDIATE\b"
)
DRIVER = re.compile(r"^\s*(?:import|from)\s+(?:sqlite3|aiosqlite)\b", re.M)
CONNECTION = re.compile(r"\.execute(?:many|_fetchall)?\(|\.db\.|\.transaction\(\)")


def _application_files() -> list[Path]:
    files = [p for top in APPLICATION for p in (ROOT / top).rglob("*.py")]
    return [p for p in files if (ROOT / "bot" / "store") not in p.parents]


def test_the_scan_sees_the_application_and_would_see_sql() -> None:
    files = _application_files()
    assert len(files) > 50 and ROOT / "bot" / "service" / "turns.py" in files
    assert SQL.search('db.execute("SELECT id FROM games WHERE x=?")')
    assert DRIVER.search("import sqlite3\n") and CONNECTION.search("await storage.db.execute(")


def test_no_sql_driver_or_connection_outside_the_storage_package() -> None:
    found = []
    for path in _application_files():
        text = path.read_text(encoding="utf-8")
        for pattern in (SQL, DRIVER, CONNECTION):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0).strip()}")
    assert found == [], "SQL belongs behind the storage port (bot/store)"
