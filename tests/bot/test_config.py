from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_URL, Config, MissingToken


def test_missing_token_names_env_example_and_sandbox() -> None:
    with pytest.raises(MissingToken) as err:
        Config.from_env({}, dotenv=None)
    assert ".env.example" in str(err.value)
    assert "make sandbox" in str(err.value)


def test_defaults_and_parsing() -> None:
    config = Config.from_env({"DISCORD_TOKEN": "abc", "DEV_GUILD_ID": "42",
                              "LOG_LEVEL": "debug"}, dotenv=None)
    assert config.token == "abc"
    assert config.database_url == DEFAULT_DATABASE_URL
    assert config.dev_guild_id == 42
    assert config.log_level == "DEBUG"


def test_environment_wins_over_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=from-file\nDATABASE_URL=sqlite+aiosqlite:///x.db\n")
    config = Config.from_env({"DISCORD_TOKEN": "from-env"}, dotenv=dotenv)
    assert config.token == "from-env"
    assert config.database_url == "sqlite+aiosqlite:///x.db"
