import os
import subprocess
import sys
from pathlib import Path

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
