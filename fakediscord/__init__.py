"""A local fake Discord that a real discord.py client connects to, for end-to-end tests.

Start it with :meth:`FakeDiscord.running`, connect a bot with :meth:`FakeDiscord.connect`,
act as users with :meth:`FakeDiscord.add_user`, and wait with :meth:`FakeDiscord.settle`.
"""

from .calls import CallRecord
from .client import TestUser
from .clock import FakeClock
from .errors import DiscordError, SettleTimeout, UserActionError
from .render import render_message, render_modal
from .server import FakeDiscord
from .snapshots import Button, Embed, EmbedField, Message, Modal, Select, SelectOption, TextInput
from .state import Channel, Guild, InteractionRecord

__all__ = [
    "Button",
    "CallRecord",
    "Channel",
    "DiscordError",
    "Embed",
    "EmbedField",
    "FakeClock",
    "FakeDiscord",
    "Guild",
    "InteractionRecord",
    "Message",
    "Modal",
    "Select",
    "SelectOption",
    "SettleTimeout",
    "TestUser",
    "TextInput",
    "UserActionError",
    "render_message",
    "render_modal",
]
