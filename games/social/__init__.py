"""Players between themselves: follows and friends, who is online, blocks, reports to staff and
staff's sanctions, and the rematch at a finished game. Built on the table; the table imports
nothing of it (what the table must refuse a suspended or muted player is games.sanctions')."""
