"""What the feature packages need of the bot that assembles them.

`bot.client.PresidentBot` imports every package (their cog, views and publisher) and wires
them together; a package importing it back would tie each feature to the whole process.
Imports flow one way: the packages see the bot as a `Host`, the few things they use of it,
and `PresidentBot` is the one class that provides them.

`Host` is a `commands.Bot` (an abstract one) rather than a `typing.Protocol` because
discord.py types an interaction by its client, `discord.Interaction[ClientT]`, with
`ClientT` bound to `discord.Client`: the packages' handlers take a
`discord.Interaction[Host]`, and a protocol cannot meet that bound.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from discord.ext import commands

if TYPE_CHECKING:
    from bot.languages import Languages
    from bot.packages.publisher.messages import Publisher
    from bot.packages.stats.members import Members
    from bot.replays import Replays
    from bot.storage.repository import Storage
    from bot.tables.budget import CallBudget
    from bot.tables.service import TableService

__all__ = ["Host"]


class Host(commands.Bot, metaclass=abc.ABCMeta):
    """The bot as the packages see it: its tables, its publisher, its budget of channel
    calls, its storage (None without a database), the interactions replayed too late to
    answer, who is known to be a member of which server (for the leaderboard), the
    languages players chose, and whether it is shutting down."""

    service: TableService
    publisher: Publisher
    budget: CallBudget
    storage: Storage | None
    replays: Replays
    members: Members
    languages: Languages

    @property
    @abc.abstractmethod
    def stopping(self) -> bool:
        """Whether the bot is shutting down past the point where a change could be stored:
        clicks are then refused until the next start."""
