"""The nonces of the table's own posts (a table message, a lobby), kept across the retry of
a post that failed for a passing reason, so that the retry cannot post it twice.

Create Message's `enforce_nonce`: "If true and nonce is present, it will be checked for
uniqueness in the past few minutes. If another message was created by the same author with
the same nonce, that message will be returned and no new message will be created" (JSON/Form
Params, https://discord.com/developers/docs/resources/message#create-message). discord.py
2.7 sends one with every message (`abc.Messageable.send`: a random 64-bit `nonce` when none
is given, `http.handle_message_parameters` then sets `enforce_nonce`), so its own retries of
a 500, 502, 504 or 524 never post twice; but a new `send` draws a new one. A 503 (raised at
once), a 5xx past its retries, a dropped connection or a timeout does not say whether Discord
made the message (`calls.passing`): the table's retry (`Publisher._try_later`) posted a
second message with the same buttons above which the first stood, never edited again
(play-test 37). It now sends the nonce of the try that failed; the message Discord then
returns, drawn as that try drew it, is edited when what it shows in full (text, embed,
buttons: `screen.shown_by` against `Screen.fingerprint`) differs from what is to be shown,
not only its text (stop 55)."""

from __future__ import annotations

import secrets

# A post's nonce, as discord.py draws its own: "up to 25 characters" (same page), and 64
# random bits take at most 20 digits.
NONCE_BITS = 64


class PostNonces:
    """Per table and message kind, the nonce of the post whose answer was lost."""

    def __init__(self) -> None:
        self._owed: dict[tuple[int, str], str] = {}

    def take(self, table_id: int, kind: str) -> tuple[str, bool]:
        """The nonce for the next post of the table's `kind` message, and whether it is a
        retry's (the post before it may have been made: Discord then returns that one)."""
        owed = self._owed.pop((table_id, kind), None)
        if owed is not None:
            return owed, True
        return str(secrets.randbits(NONCE_BITS)), False

    def lost(self, table_id: int, kind: str, nonce: str) -> None:
        """The post with `nonce` failed for a passing reason: maybe made, so its retry
        sends the same nonce."""
        self._owed[(table_id, kind)] = nonce

    def forget(self, table_id: int) -> None:
        """The table closed: nothing of it is posted again."""
        for key in [k for k in self._owed if k[0] == table_id]:
            del self._owed[key]
