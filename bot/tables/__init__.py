"""Table runtime: seats, locks, timers and coalesced refreshes, kept apart from discord.py."""
