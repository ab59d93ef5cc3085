"""Imports flow one way: the engine knows nothing of the bot, its I/O or its players, and the
bot's feature packages never import the client that assembles them (they see it as
`bot.packages.host.Host`). Type-only imports count: they tie the modules together as much."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every module `path` imports, absolute, wherever the import statement stands."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def offenders(folder: str, banned: tuple[str, ...], root: Path = ROOT) -> list[str]:
    out = []
    for path in sorted((root / folder).rglob("*.py")):
        for name in sorted(imports(path, root)):
            if any(name == b or name.startswith(b + ".") for b in banned):
                out.append(f"{path.relative_to(root).as_posix()} imports {name}")
    return out


def reached(start: Path, within: str, skip: tuple[str, ...] = (), root: Path = ROOT) -> set[str]:
    """The modules of package `within` that `start` imports, directly or through another of
    them; the ones named in `skip` are not followed. A package's `__init__` is not followed
    either: `engine/__init__.py` re-exports the players for the engine's callers."""
    found: set[str] = set()
    todo = sorted(imports(start, root))
    while todo:
        name = todo.pop()
        path = root.joinpath(*name.split(".")).with_suffix(".py")
        if name in found or not name.startswith(within + ".") or not path.is_file() \
                or name in skip:
            continue
        found.add(name)
        todo.extend(imports(path, root))
    return found


def test_the_engine_is_pure() -> None:
    assert offenders("engine", ("asyncio", "discord", "sqlalchemy", "bot", "fakediscord")) == []


def test_the_game_does_not_import_its_players() -> None:
    """The seats the engine plays itself are played by what the caller hands `Game.new`
    (`autoplay`): the game reaches no player, not even through the layers it is built of."""
    game = imports(ROOT / "engine" / "game.py")
    assert sorted(n for n in game if n.startswith(("engine.players", "engine.bots"))) == []
    through = reached(ROOT / "engine" / "game.py", "engine")
    assert sorted(n for n in through if n.startswith(("engine.players", "engine.bots"))) == []
    assert through >= {"engine.state", "engine.tricks", "engine.rounds", "engine.automation",
                       "engine.snapshot"}


def test_the_transitive_check_follows_a_chain(tmp_path: Path) -> None:
    for name, text in (("game", "from .automation import Automation\n"),
                       ("automation", "from .players import GreedyPlayer\n"),
                       ("players", "")):
        (tmp_path / "engine").mkdir(exist_ok=True)
        (tmp_path / "engine" / f"{name}.py").write_text(text)
    assert reached(tmp_path / "engine" / "game.py", "engine", root=tmp_path) >= {
        "engine.automation", "engine.players"}


def test_feature_packages_do_not_import_the_client() -> None:
    assert offenders("bot/packages", ("bot.client", "bot.__main__", "bot.sandbox",
                                      "bot.loadbench")) == []


def test_the_table_runtime_does_not_import_discord() -> None:
    assert offenders("bot/tables", ("discord",)) == []


def test_the_layers_below_the_features_do_not_import_them() -> None:
    """The table runtime and the storage sit below the feature packages, the storage below
    the tables: none imports a layer above it. The benchmarks that drive a whole stack
    (`bot.turnbench`, `bot.longbench`) stand at the top, beside `bot.loadbench`."""
    above = ("bot.packages", "bot.client", "bot.__main__", "bot.sandbox", "bot.loadbench",
             "bot.turnbench", "bot.longbench")
    assert offenders("bot/tables", above) == []
    assert offenders("bot/storage", ("bot.tables", *above)) == []


def test_the_service_parts_do_not_import_the_service() -> None:
    """The table service assembles its parts (seating, deadlines, bot turns, refusals, …) and
    hands them the callables they need of it: none may import it, not even through another."""
    parts = reached(ROOT / "bot" / "tables" / "service.py", "bot.tables")
    assert "bot.tables.service" not in parts
    assert parts >= {f"bot.tables.{part}" for part in (
        "seating", "seats", "deadlines", "botturns", "hosting", "refusals", "outbox", "games",
        "moves", "handlinks", "outages", "unreachable")}


def test_the_records_a_table_holds_do_not_import_the_table() -> None:
    """`Table` (bot/tables/table.py) holds records kept in modules of their own (its
    players, hand links, history lines, break, reminder, results, seats' holders, …) so
    that the publisher, the storage and the table's helpers read them without the table:
    none may import it back, not even for its type or through another module."""
    table = ROOT / "bot" / "tables" / "table.py"
    records = sorted(n for n in imports(table) if n.startswith("bot.")
                     and ROOT.joinpath(*n.split(".")).with_suffix(".py").is_file())
    assert set(records) >= {f"bot.tables.{record}" for record in (
        "players", "tokens", "logentry", "pause", "ping", "results", "holders")}
    for record in records:
        path = ROOT.joinpath(*record.split(".")).with_suffix(".py")
        assert "bot.tables.table" not in reached(path, "bot"), record


def test_the_publisher_parts_do_not_import_the_publisher() -> None:
    """`Publisher` (bot/packages/publisher/messages.py) assembles its parts (blocked tables,
    hands, charts, owed edits, undescribed servers) and hands them what they need of it (a
    redraw): none may import it, not even through another. `Host`, the bot as every package
    sees it, names the publisher for the type checker: the way back it gives is not followed."""
    folder = ROOT / "bot" / "packages" / "publisher"
    parts = sorted(p for p in folder.glob("*.py") if p.stem not in ("__init__", "messages"))
    assert {p.stem for p in parts} >= {"blocked", "hands", "charts", "owed_edits", "servers",
                                        "calls"}
    for part in parts:
        assert "bot.packages.publisher.messages" not in reached(
            part, "bot", skip=("bot.packages.host",)), part.name


def test_the_checker_sees_relative_and_type_only_imports(tmp_path: Path) -> None:
    probe = tmp_path / "bot" / "packages" / "game" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from ...client import PresidentBot\n"
                     "from . import display\n")
    assert imports(probe, tmp_path) >= {"bot.client", "bot.client.PresidentBot",
                                        "bot.packages.game.display"}
    assert offenders("bot/packages", ("bot.client",), tmp_path) == [
        "bot/packages/game/probe.py imports bot.client",
        "bot/packages/game/probe.py imports bot.client.PresidentBot"]
