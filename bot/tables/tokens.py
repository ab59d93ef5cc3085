"""What a table keeps of the interactions it may still edit through their token: each
player's hand link, the command that opened it, and the hands to redraw once as they go.

Apart from `Table`, which holds them, as the publisher's hand code reads them by the
dozen and never needs the rest of the table to do so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tables.snapshot import HandLinkSnapshot, OpeningSnapshot

# Discord accepts follow-up edits through an interaction token for 15 minutes; stop a little
# earlier so an edit never races the expiry.
TOKEN_LIFETIME = 15 * 60 - 30


@dataclass
class HandLink:
    """The latest interaction whose original response is this player's ephemeral hand."""

    application_id: int
    token: str
    created: float
    fingerprint: str = ""  # what was last sent there, to skip edits that change nothing
    # The player's language at that interaction: what the hand says once they have left the
    # table (their seat, which also keeps it, is gone by then).
    locale: str = ""
    # False while a hand in a message of its own is recorded but its answer not yet sent
    # (`game.views.show_hand` saves the link first): an edit of « @original » before then
    # finds no message (404) and would forget the link. Not saved: a restored link was sent.
    answered: bool = field(default=True, compare=False)
    # Its player let a turn run out since: the hand may be dismissed, though its link is
    # valid; the table message asks for « My hand » again until a newer link replaces it.
    # Not saved: a restart asks nothing of a player it has not seen time out.
    lapsed: bool = field(default=False, compare=False)
    # Its last edit, as its token ran out, said it no longer follows the game
    # (`Hands._lapse_at_expiry`): no refresh may draw over that. Not saved either.
    frozen: bool = field(default=False, compare=False)
    # The message it shows, once known: the one clicked, or the one its answer created
    # (Discord says it, `with_response`). Two links of one player on different messages
    # mean the older message no longer follows the game (`HandLinks.remember`).
    message_id: int | None = field(default=None, compare=False)
    # The page of plays its player turned to (« Autres coups »), and the game's version it
    # was drawn at: a refresh at that version draws the same page (`Hands.flush`), where it
    # drew the first, an edit turning the hand back under its player's eyes whenever anyone
    # else clicked at the table. Not saved: a restart draws the first page.
    turned: tuple[int | None, int] | None = field(default=None, compare=False)

    def page(self, version: int | None) -> int:
        """The page to draw at the game's `version` (None: no game): the one turned to at
        that version, else the first, as after any change."""
        turned = self.turned
        return turned[1] if turned is not None and turned[0] == version else 0

    @property
    def expires(self) -> float:
        """When the bot stops using this link, on the service's clock."""
        return self.created + TOKEN_LIFETIME

    def valid(self, now: float) -> bool:
        return now < self.expires

    def to_dict(self) -> HandLinkSnapshot:
        return {"application_id": self.application_id, "token": self.token,
                "created": self.created, "locale": self.locale, "message_id": self.message_id}

    @classmethod
    def from_dict(cls, d: HandLinkSnapshot) -> HandLink:
        message_id = d.get("message_id")
        return cls(int(d["application_id"]), d["token"], float(d["created"]),
                   locale=d.get("locale", ""),
                   message_id=int(message_id) if message_id is not None else None)


@dataclass(frozen=True)
class Opening:
    """The `/president create` interaction a table was opened by, kept until its lobby's id
    is stored: a process that dies after deferring (« … réfléchit… ») and before the lobby
    is posted, or stored, leaves a restart within the token's life the original response to
    edit into the lobby (`Publisher._opened`), found at any depth, in one call
    (« Edit Original Interaction Response », discord-api-docs,
    developers/interactions/receiving-and-responding.mdx). Written only while set."""

    application_id: int
    token: str
    created: float  # when the interaction came, on the service's clock

    @property
    def expires(self) -> float:
        return self.created + TOKEN_LIFETIME

    def to_dict(self) -> OpeningSnapshot:
        return {"application_id": self.application_id, "token": self.token,
                "created": self.created}

    @classmethod
    def from_dict(cls, d: OpeningSnapshot) -> Opening:
        return cls(int(d["application_id"]), d["token"], float(d["created"]))


@dataclass(frozen=True)
class Farewell:
    """A hand of `user_id` no longer refreshed, to redraw once without controls, and what
    it then says: that they left (« lobby.left », or the queue, or the list), or only that
    it closed (« hand.folded ») where the answer to their leave says it (`Seating.leave`),
    that the host removed them (« hand.kicked »), or that the hand moved to another
    message (« hand.moved »), which keeps one button to bring it back
    (`publisher.hands.farewell_screen`)."""

    user_id: int
    link: HandLink
    key: str
