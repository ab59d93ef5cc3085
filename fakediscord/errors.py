"""Discord's refusals, in Discord's own shape, and the test client's refusals."""

from __future__ import annotations

from typing import Any

UNKNOWN_CHANNEL = 10003
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
OLD_MESSAGE_EDITS = 30046
EMPTY_MESSAGE = 50006
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ARCHIVED_THREAD = 50083
THREAD_LOCKED = 160005
ALREADY_ACKNOWLEDGED = 40060
MAX_ATTACHMENTS = 30015
MAX_APPLICATION_COMMANDS = 30032
MAX_DAILY_COMMAND_CREATES = 30034
REQUEST_TOO_LARGE = 40005


class DiscordError(Exception):
    """An HTTP error answered exactly as Discord would, so discord.py raises what it would.

    ``errors`` is Discord's nested field map (``{"content": {"_errors": [...]}}``) and is
    what a test inspects to see which limit the bot broke.
    """

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def route_not_found() -> DiscordError:
    return DiscordError(404, 0, "404: Not Found")


def unknown_channel() -> DiscordError:
    return DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")


def unknown_member() -> DiscordError:
    return DiscordError(404, UNKNOWN_MEMBER, "Unknown Member")


def unknown_user() -> DiscordError:
    return DiscordError(404, UNKNOWN_USER, "Unknown User")


def missing_access() -> DiscordError:
    return DiscordError(403, MISSING_ACCESS, "Missing Access")


def missing_permissions() -> DiscordError:
    """50013, "You lack permissions to perform that action" (JSON error codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes)."""
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def old_message_edits() -> DiscordError:
    """30046, "Maximum number of edits to messages older than 1 hour reached. Try again
    later" (same table); like the other 30xxx limits it is a 400."""
    return DiscordError(
        400, OLD_MESSAGE_EDITS, "Maximum number of edits to messages older than 1 hour reached."
    )


def archived_thread() -> DiscordError:
    """50083, "Tried to perform an operation on an archived thread, such as editing a
    message or adding a user to the thread" (JSON error codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
    a 400 like the other 50xxx refusals of the request itself."""
    return DiscordError(400, ARCHIVED_THREAD, "Thread is archived")


def thread_locked() -> DiscordError:
    """160005, "Thread is locked" (same table)."""
    return DiscordError(400, THREAD_LOCKED, "Thread is locked")


def unknown_message() -> DiscordError:
    return DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")


def empty_message() -> DiscordError:
    return DiscordError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def request_entity_too_large() -> DiscordError:
    """An upload over the size limit (10 MiB by default: Uploading Files,
    https://discord.com/developers/docs/reference#uploading-files): JSON error code 40005
    "Request entity too large. Try sending something smaller in size"
    (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes),
    with HTTP's 413; what `messages.MessageWriter` answers a file past the limit, and what
    a test may inject (`FakeDiscord.inject_error`). The list's 50045 "File uploaded exceeds
    the maximum size" reads closer, yet a bot's file over 10 MiB is answered « 413 Payload
    Too Large (error code: 40005) » (discord/discord-api-docs issue 8572)."""
    return DiscordError(413, REQUEST_TOO_LARGE, "Request entity too large")


def max_attachments() -> DiscordError:
    """30015, "Maximum number of attachments in a message reached (10)" (JSON error codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
    a 400 like the other 30xxx limits."""
    return DiscordError(400, MAX_ATTACHMENTS,
                        "Maximum number of attachments in a message reached (10)")


def max_application_commands() -> DiscordError:
    """30032, "Maximum number of application commands reached" (JSON error codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
    a 400 like the other 30xxx limits."""
    return DiscordError(400, MAX_APPLICATION_COMMANDS,
                        "Maximum number of application commands reached")


def max_daily_command_creates() -> DiscordError:
    """30034, "Maximum number of daily application command creates has been reached (200)"
    (same table); a 400 like the other 30xxx limits."""
    return DiscordError(400, MAX_DAILY_COMMAND_CREATES,
                        "Maximum number of daily application command creates has been "
                        "reached (200)")


def invalid_form_body(errors: dict[str, Any]) -> DiscordError:
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


class UserActionError(AssertionError):
    """A test user tried something Discord's UI would not let a person do.

    Clicking a disabled button, a message the user cannot see, or a command that was never
    synced is a bug in the test or in the bot, so it fails the test at the call site.
    """


class SettleTimeout(AssertionError):
    """The bot kept working, or never answered an interaction, within the settle timeout."""
