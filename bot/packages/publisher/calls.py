"""What the publisher's channel calls share: no pings, and the refusals of a closed thread.

The codes are Discord's JSON error codes
(https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
"""

from __future__ import annotations

import discord

NO_PINGS = discord.AllowedMentions.none()
# "Tried to perform an operation on an archived thread, such as editing a message". A post
# is no such operation: "Sending a message will automatically unarchive the thread, unless
# the thread has been locked by a moderator" (Threads, Active & Archived Threads,
# https://discord.com/developers/docs/topics/threads#active-archived-threads).
ARCHIVED_THREAD = 50083
# "Thread is locked": "Users (including bot users) without the MANAGE_THREADS permission
# [...] won't be able to create or update messages in locked threads" (Threads, Locked
# Threads, https://discord.com/developers/docs/topics/threads#locked-threads).
THREAD_LOCKED = 160005
