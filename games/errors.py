"""The one error type services raise: a short code for programs and a translated message."""

from django.utils.translation import gettext_lazy as _

# Messages for the engine's IllegalMove codes, so the mover reads them in their language.
ENGINE_MESSAGES = {
    "bad_move": _("That is not a move."),
    "bad_tile": _("That is not a tile."),
    "bad_seat": _("There is no such seat at this table."),
    "not_your_turn": _("It is not your turn."),
    "tile_not_in_rack": _("That tile is not in your rack."),
    "must_draw_first": _("Draw a tile first."),
    "already_drawn": _("You have already drawn this turn: discard or finish."),
    "cannot_discard_taken_tile": _("You cannot throw back the tile you just took."),
    "taken_tile": _("You cannot throw back the tile you just took."),
    "no_finish": _("Those tiles do not finish: the other 14 must form melds or seven pairs."),
    "no_take": _("There is no tile to take from the left pile."),
    "nothing_to_take": _("There is no tile to take from the left pile."),
    "first_turn_no_draw": _("The first player does not draw on the first turn: discard a tile."),
    "hand_over": _("The hand is over."),
    "stock_empty": _("The stock is empty."),
    "already_declared": _("You have already declared pairs."),
    "already_shown": _("The indicator has already been shown this hand."),
    "not_first_turn": _("The indicator can only be shown on your first turn."),
    "no_twin": _("You do not hold the indicator's twin."),
    "show_off": _("Showing the indicator is off at this table."),
    "indicator_taken": _("The indicator has already been taken."),
    "not_declared": _("Only a player who declared pairs may take the indicator."),
    "not_six_pairs": _("You need six pairs to take the indicator."),
    "take_indicator_off": _("The indicator can never be taken at this table."),
}


class ServiceError(Exception):
    """A refused action. Nothing was changed when this is raised."""

    def __init__(self, code: str, message=None, *, details: dict | None = None):
        self.code = code
        self.message = message if message is not None else ENGINE_MESSAGES.get(code, code)
        self.details = details or {}  # what a page may offer beside the message (ids, flags)
        super().__init__(f"{code}: {self.message}")


def engine_error(exc) -> ServiceError:
    """A ServiceError for an engine IllegalMove, translated when the code is known."""
    message = ENGINE_MESSAGES.get(exc.code)
    return ServiceError(exc.code, message if message is not None else exc.message)
