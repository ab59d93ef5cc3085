import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.__main__ import main
from bot.storage.db import NewerDatabase

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS")}
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path,
                          env={**base, "PYTHONPATH": str(ROOT), **env},
                          capture_output=True, text=True, timeout=60)


def test_no_token_prints_one_clear_line_and_exits_2(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert ".env.example" in lines[0] and "make sandbox" in lines[0]


def test_a_bad_shard_setting_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0,2")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "SHARD_IDS must list shard numbers from 0 to 1 (SHARD_COUNT=2), got [0, 2]"]


def test_a_bot_that_stopped_because_another_process_took_its_shards_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure status, so that a supervisor restarting only failed processes restarts it
    (`PresidentBot.check_shard_locks`); a bot stopped otherwise still exits 0."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")  # (INFO would quieten alembic's logger for good)
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    stopped = SimpleNamespace(shards_lost=True)
    monkeypatch.setattr("bot.client.create_bot", lambda config: stopped)

    async def serve(bot: object, token: str) -> None:
        assert bot is stopped and token == "x"

    monkeypatch.setattr("bot.__main__.serve", serve)
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 1
    stopped.shards_lost = False
    main()


def test_a_database_a_newer_version_migrated_prints_one_line_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The code rolled back without the schema: a supervisor's log shows the one sentence
    that says what to run (`bot.storage.db.NewerDatabase`), not a traceback."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")  # (INFO would quieten alembic's logger for good)
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("bot.client.create_bot", lambda config: SimpleNamespace())

    async def serve(bot: object, token: str) -> None:
        raise NewerDatabase("the database is at revision 0099")

    monkeypatch.setattr("bot.__main__.serve", serve)
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert capsys.readouterr().err == "the database is at revision 0099\n"
