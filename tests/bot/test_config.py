from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_URL, Config, InvalidSetting, MissingToken


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


def shards(**env: str) -> tuple[int | None, tuple[int, ...] | None]:
    config = Config.from_env({"DISCORD_TOKEN": "abc", **env}, dotenv=None)
    return config.shard_count, config.shard_ids


def test_shards_unset_run_every_shard_in_one_unsharded_process() -> None:
    assert shards() == (None, None)


def test_shard_count_alone_runs_all_of_its_shards() -> None:
    assert shards(SHARD_COUNT="3") == (3, (0, 1, 2))


def test_shard_ids_pick_this_process_s_shards() -> None:
    assert shards(SHARD_COUNT="4", SHARD_IDS="2, 3") == (4, (2, 3))


@pytest.mark.parametrize("raw", ["auto", " AUTO "])
def test_shard_count_auto_leaves_the_count_to_discord(raw: str) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "abc", "SHARD_COUNT": raw}, dotenv=None)
    assert config.shard_auto
    assert (config.shard_count, config.shard_ids) == (None, None)
    assert not Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=None).shard_auto


@pytest.mark.parametrize(("env", "says"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of at least 1"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number of at least 1, not 'two'"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1 (SHARD_COUNT=2), got [2]"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "lists a shard twice"),
    ({"SHARD_COUNT": "auto", "SHARD_IDS": "0"}, "SHARD_IDS needs a whole-number SHARD_COUNT"),
    ({"METRICS_PORT": "http"}, "METRICS_PORT must be a whole number"),
    ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a TCP port from 0 to 65535"),
    ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE must be a whole number of at least 1"),
    ({"DATABASE_MAX_OVERFLOW": "-1"}, "DATABASE_MAX_OVERFLOW must be a whole number"),
    ({"DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT must be more than 0 seconds"),
    ({"DATABASE_CONNECT_TIMEOUT": "ten"}, "DATABASE_CONNECT_TIMEOUT must be a number of sec"),
    ({"DATABASE_COMMAND_TIMEOUT": "-1"}, "DATABASE_COMMAND_TIMEOUT must be a number of sec"),
    # play-test 13: these three stopped the bot with a traceback
    ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be one guild id (its digits), not 'abc'"),
    ({"BOT_PAUSE_SECONDS": "1,5"}, "with a decimal point (1.5), not '1,5'"),
    ({"BOT_PAUSE_SECONDS": "nan"}, "BOT_PAUSE_SECONDS must be a number of seconds"),
    ({"BOT_PAUSE_SECONDS": "1_5"}, "BOT_PAUSE_SECONDS must be a number of seconds"),
    ({"LOG_LEVEL": "verbose"}, "LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, "
                               "DEBUG, not 'VERBOSE'"),
    ({"SHARD_LOCK_IDLE_TIMEOUT": "60"}, "SHARD_LOCK_IDLE_TIMEOUT must be at least 80 seconds"),
    ({"SHARD_LOCK_IDLE_TIMEOUT": "2m"}, "SHARD_LOCK_IDLE_TIMEOUT must be a number of seconds"),
    ({"SEARCH_WORKERS": "0"}, "SEARCH_WORKERS must be a whole number of at least 1, not '0'"),
    ({"SEARCH_WORKERS": "two"}, "SEARCH_WORKERS must be a whole number of at least 1"),
])
def test_bad_settings_are_refused_with_the_variable_named(env: dict[str, str],
                                                           says: str) -> None:
    with pytest.raises(InvalidSetting) as err:
        Config.from_env({"DISCORD_TOKEN": "abc", **env}, dotenv=None)
    assert says in str(err.value)


def test_metrics_port_is_off_unless_set() -> None:
    assert Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=None).metrics_port is None
    config = Config.from_env({"DISCORD_TOKEN": "abc", "METRICS_PORT": "9108"}, dotenv=None)
    assert config.metrics_port == 9108


def test_search_workers_default_to_the_cores_but_one_unless_set() -> None:
    """Empty: `Thinker` sizes its pool from the host (`thinking.workers`)."""
    assert Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=None).search_workers is None
    config = Config.from_env({"DISCORD_TOKEN": "abc", "SEARCH_WORKERS": "3"}, dotenv=None)
    assert config.search_workers == 3


def test_pool_sizes_come_from_dotenv_too(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DATABASE_POOL_SIZE=8\nDATABASE_MAX_OVERFLOW=0\n")
    config = Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=dotenv)
    assert (config.database_pool_size, config.database_max_overflow) == (8, 0)


def test_database_timeouts_have_defaults_and_a_command_timeout_may_be_lifted() -> None:
    config = Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=None)
    assert (config.database_connect_timeout, config.database_command_timeout,
            config.database_pool_timeout) == (10.0, 30.0, 10.0)
    config = Config.from_env({"DISCORD_TOKEN": "abc", "DATABASE_COMMAND_TIMEOUT": "0",
                              "DATABASE_CONNECT_TIMEOUT": "2.5"}, dotenv=None)
    assert (config.database_connect_timeout, config.database_command_timeout) == (2.5, 0.0)


def test_log_levels_are_the_ones_python_knows_by_name() -> None:
    for level in ("warn", "WARNING", "fatal", "debug"):
        assert Config.from_env({"DISCORD_TOKEN": "abc", "LOG_LEVEL": level},
                               dotenv=None).log_level == level.upper()
    assert Config.from_env({"DISCORD_TOKEN": "abc", "BOT_PAUSE_SECONDS": ".5"},
                           dotenv=None).bot_pause == 0.5


def test_a_shard_lock_s_session_is_ended_by_the_server_after_two_minutes_unchecked() -> None:
    """A dead process's shards are freed by PostgreSQL after SHARD_LOCK_IDLE_TIMEOUT
    (`ShardLocks.acquire`); a bot built in a test, whose checks run on its own clock,
    sets none."""
    config = Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv=None)
    assert config.shard_lock_idle_timeout == 120.0
    config = Config.from_env({"DISCORD_TOKEN": "abc", "SHARD_LOCK_IDLE_TIMEOUT": "300"},
                             dotenv=None)
    assert config.shard_lock_idle_timeout == 300.0
    assert Config(token="abc").shard_lock_idle_timeout is None
