"""The events the running bot listens to through its cogs: each has exactly one listener,
held by the cog that owns it. The gateway listeners moved from the `/president` command
group to `ServerChanges` (stop 56); a listener lost or added twice by such a move would
leave a server change unheard, or acted on twice."""

from bot.client import PresidentBot

# Every gateway event the command group listened to before the split (stop 56).
GATEWAY = {
    "on_guild_channel_delete", "on_raw_thread_delete", "on_guild_channel_update",
    "on_guild_role_update", "on_guild_role_delete", "on_member_update",
    "on_raw_thread_update", "on_thread_remove", "on_thread_join", "on_raw_message_delete",
    "on_raw_bulk_message_delete", "on_member_ban", "on_audit_log_entry_create",
    "on_guild_remove", "on_guild_available", "on_guild_join", "on_guild_unavailable",
    "on_disconnect", "on_shard_disconnect", "on_resumed", "on_shard_resumed", "on_ready",
    "on_shard_ready",
}


def owners(bot: PresidentBot) -> dict[str, list[str]]:
    """Per event, the cog of each listener registered on the bot (discord.py keeps a cog's
    listeners in `extra_events`, bound to the cog)."""
    return {event: sorted(type(getattr(listener, "__self__", None)).__name__
                          for listener in listeners)
            for event, listeners in bot.extra_events.items() if listeners}


async def test_each_event_has_exactly_one_listener_in_its_cog(president: PresidentBot) -> None:
    assert owners(president) == {"on_app_command_completion": ["President"],
                                 **{event: ["ServerChanges"] for event in GATEWAY}}
