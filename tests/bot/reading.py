"""What a player reads on a message, and whether it is fit to be read: the play-tests'
eye on every lobby, panel, table message and hand they pass (play-tests 39 and 40)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping

from bot.i18n import CATALOGUES, button_names, command_names
from fakediscord import Message, TestUser

# A catalogue key shown as it is (« hand.folded ») where its words should be.
KEYS = {key for catalogue in CATALOGUES.values() for key in catalogue}

# Words only one of the two languages writes: a line of a message in the other with one of
# them mixes the two. Short, common ones, so that any sentence has some.
WORDS = {
    "fr": {"le", "la", "les", "tu", "ta", "ton", "tes", "te", "une", "des", "du", "est",
           "pour", "avec", "pas", "sur", "dans", "qui", "et", "manche", "partie", "cartes",
           "carte", "joue", "jouer", "passer", "tour", "quand", "encore"},
    "en": {"the", "you", "your", "is", "and", "with", "for", "not", "to", "of", "round",
           "play", "game", "cards", "card", "turn", "hand", "has", "are", "it", "when",
           "yet"},
}
# A card's face in the other language: a French message writes V, D, R, an English one J, Q, K.
FACES = {"fr": r"\b[JQK][♣♦♥♠]", "en": r"\b[VDR][♣♦♥♠]"}
COMMAND = re.compile(r"`(/[^`]*)`")
# Left out: commands, mentions and emojis, links, and words quoted from the other language
# (« “ta gueule” in French »).
UNREAD = re.compile(r"`[^`]*`|<[^>]*>|https?://\S+|“[^”]*”|«[^»]*»")


def language(text: str, names: set[str]) -> set[str]:
    """The languages whose own words ``text`` writes, commands, mentions, links and
    ``names`` left out."""
    words = set(re.findall(r"[a-zà-ÿ’']+", UNREAD.sub(" ", text).lower())) - names
    return {lang for lang, own in WORDS.items() if words & own}


def read(msg: Message) -> str:
    """Everything a player reads on ``msg``: its text (`Message.text`: content, text
    displays, each embed's author, title, description, fields and footer) and its
    controls' words."""
    words = [msg.text]
    words += [s.placeholder or "" for s in msg.selects]
    words += [o.label for s in msg.selects for o in s.options]
    words += [b.label or "" for b in msg.buttons]
    return "\n".join(words)


def well_written(msg: Message, locale: str) -> None:
    """Within Discord's limits, no key shown raw, and each language's typography."""
    assert len(msg.content) <= 2000
    assert len(msg.buttons) + len(msg.selects) <= 25 and all(
        len(s.options) <= 25 for s in msg.selects)
    text = read(msg)
    assert not KEYS & set(re.findall(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b", text)), text
    if locale == "fr":
        assert "'" not in text and " :" not in text.replace("\u00a0:", ""), text
    else:
        assert "’" not in text and "\u00a0:" not in text and "«" not in text, text


def changed(users: dict[str, TestUser], seen: dict[tuple[str, int], str],
            dms: bool = False) -> Iterator[tuple[str, Message, str]]:
    """Each message a member sees (and their DMs with ``dms``) whose words changed since
    ``seen`` last held them: a play-test reads every version once, not the same one at
    each step. ``seen`` is updated as they are yielded."""
    for name, user in users.items():
        shown = user.visible() + user.visible(user.dm) if dms else user.visible()
        for msg in shown:
            text = read(msg)
            if seen.get((name, msg.id)) != text:
                seen[(name, msg.id)] = text
                yield name, msg, text


class Reader:
    """Every message each member sees (and their DMs), read again each time its words change
    (play-tests 42 to 44): well written in its language, each line in that language alone,
    card faces in it, every command named as the reader's client lists it. A private message
    speaks its reader's language (``chosen``, else their device's in ``devices``); a public
    one the table's (``public``). Counts the readings and keeps the longest of each kind;
    ``dump``: a file each reading is written to, to read a run through."""

    def __init__(self, users: dict[str, TestUser], devices: Mapping[str, str],
                 public: str = "fr", dump: str | None = None) -> None:
        self.users = users
        self.devices = devices
        self.public = public
        self.dump = dump
        self.chosen: dict[str, str] = {}
        self.seen: dict[tuple[str, int], str] = {}
        self.names = set(users) | {"bot"}
        self.read = 0
        self.longest: Counter[str] = Counter()

    def speaks(self, name: str) -> str:
        return self.chosen.get(name) or self.devices[name][:2]

    def __call__(self, label: str = "") -> None:
        if self.dump and label:
            with open(self.dump, "a", encoding="utf-8") as f:
                print(f"===== {label}", file=f)
        for name, msg, text in changed(self.users, self.seen, dms=True):
            self.check(name, msg, text)

    def check(self, name: str, msg: Message, text: str) -> None:
        own = msg.ephemeral or msg.channel_id == self.users[name].dm.id
        want = self.speaks(name) if own else self.public
        self.read += 1
        kind = "private" if own else "public"
        self.longest[kind] = max(self.longest[kind], len(msg.content))
        if self.dump:
            with open(self.dump, "a", encoding="utf-8") as f:
                print(f"--- {name} ({want}) #{msg.id} {len(msg.content)}", text, sep="\n",
                      file=f)
        well_written(msg, want)
        # A private line names the public buttons as they show, in the table's language
        # (« choose **Manche suivante** or **Terminer** », `button_names`): not a mix.
        shown = {f"**{label}**" for label in button_names(self.public).values()}
        for line in text.split("\n"):
            for label in shown if own else ():
                line = line.replace(label, " ")
            assert language(line, self.names) <= {want}, (name, want, line)
        # Commands: a private message names them as the reader's client does, a public
        # one in the table's language (each reader's client may differ).
        listed = set(command_names(self.devices[name][:2] if own else self.public).values())
        for named in COMMAND.findall(text):
            assert named in listed, (name, named, text)
        assert not re.search(FACES[want], text), (name, want, text)  # R♠ or K♠

    def close(self, seconds: float) -> None:
        """A play-test's last reading: its figures (the readings, the longest message of
        each kind, the test's ``seconds``) written to the dump, if any, and no message
        longer than 1,500 characters read (play-tests 44 and 45)."""
        if self.dump:
            with open(self.dump, "a", encoding="utf-8") as f:
                print("FIGURES", self.read, dict(self.longest), seconds, file=f)
        assert self.longest["public"] <= 1500 and self.longest["private"] <= 1500
