"""Puts tables on Discord. `messages.Publisher` draws a table's lobby and table messages and
assembles the rest: the tables whose channel does not let the bot post now (`blocked`),
every player's ephemeral hand (`hands`), the points chart on a game's results (`charts`),
the edits an archived thread owes its messages (`owed_edits`), and what waits for the
gateway to describe a server (`servers`); `calls` holds what their channel calls share."""
