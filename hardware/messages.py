"""The words on the OLED, looked up in the one catalogue (``companion.words``).

A line the page shows in the same words is the page's own message; the rest are short forms under
the message context ``oled``, kept short so they fit 128x64. The button names HINT, UNDO and OK
stay as printed on the box in every language.
"""
from __future__ import annotations

from companion.words import LANGUAGES, N_, NP_, Message, UnknownLanguage, check_language, suit_name, translate

__all__ = ["LANGUAGES", "LINES", "UnknownLanguage", "card_name", "check_language", "text"]

LINES: dict[str, Message] = {
    # dashboard
    "deck": N_("Deck"), "fuses": NP_("oled", "Fuses"), "score": N_("Score"), "final": NP_("oled", "Final"),
    "turn": NP_("oled", "Turn %(n)s"), "reward_due": NP_("oled", "Reward tile!"), "pace": NP_("oled", "Pace %(n)s"),
    # flashes: one per kind of table change
    "hint": NP_("oled", "Hint given"), "hint.detail": NP_("oled", "%(hints)s left"),
    "played": NP_("oled", "Played ✓"), "misplay": NP_("oled", "Misplay ✗"),
    "misplay.detail": NP_("oled", "Fuse %(used)s of %(tokens)s"),
    "discarded": NP_("oled", "Discarded"),
    "final_round": NP_("oled", "Final round"), "final_round.detail": NP_("oled", "%(n)s turns left"),
    "undo": NP_("oled", "Undone"), "undo.hint": NP_("oled", "the hint"),
    "reward_revealed": NP_("oled", "Firework done!"), "reward_revealed.detail": NP_("oled", "Reveal a reward tile"),
    "reward": NP_("oled", "Reward tile"),
    "corrected": NP_("oled", "Corrected"), "corrected.was": NP_("oled", "was: %(card)s"),
    "dismissed": NP_("oled", "Card dismissed"), "dismissed.detail": NP_("oled", "Lay it again"),
    "resumed": N_("Game resumed"),
    "new_game": N_("New game"),
    "restored": NP_("oled", "Game restored"), "restored.detail": NP_("oled", "%(n)s actions"),
    "last_copy_lost": NP_("oled", "Last copy lost!"), "last_copy_lost.detail": NP_("oled", "Max now %(n)s"),
    "pace_zero": NP_("oled", "Pace %(n)s!"), "pace_zero.detail": NP_("oled", "No more discards"),
    # reward tiles
    "tile.hint": NP_("oled", "Extra hint"), "tile.fuse": NP_("oled", "Fuse back"),
    "tile.color_clue": NP_("oled", "Free colour clue"), "tile.value_clue": NP_("oled", "Free value clue"),
    "tile.reshuffle": NP_("oled", "Reshuffle"), "tile.rescue": NP_("oled", "Rescue"),
    # the unsure card
    "pending.play": NP_("oled", "Played this card?"), "pending.discard": NP_("oled", "Discarded this?"),
    "pending.or": NP_("oled", "or %(cards)s"), "pending.keys": NP_("oled", "OK = yes   UNDO = no"),
    # game over
    "over.won": NP_("oled", "You won!"), "over.lost": NP_("oled", "Lost"), "over.finished": NP_("oled", "Game over"),
    "over.teach": NP_("oled", "Unsure of %(asked)s of %(laid)s cards: teach your deck on the page"),
    # refusals
    "refused": NP_("oled", "Not allowed"),
    "refuse.no_hints": NP_("oled", "No hint tokens left"),
    "refuse.discard_max": NP_("oled", "All hint tokens available: discard not allowed"),
    "refuse.nothing_to_undo": NP_("oled", "Nothing to undo"),
    "refuse.nothing_pending": NP_("oled", "No card waits for OK"),
    "refuse.game_over": NP_("oled", "The game is over"),
    "refuse.ended": NP_("oled", "Game ended: UNDO resumes it"),
    "refuse.no_game": NP_("oled", "No game yet: start one on the phone"),
    "refuse.no_copies": NP_("oled", "Every %(card)s is already out"),
    "refuse.reward_first": NP_("oled", "Record the reward tile first"),
    "refuse.rules": NP_("oled", "The rules forbid that"),
    "refuse.disk_full": NP_("oled", "SD card full: not saved"),
    "refuse.write_failed": NP_("oled", "SD card error: not saved"),
    "refuse.read_only": NP_("oled", "SD card read-only: not saved"),
    # boot status
    "status.title": NP_("oled", "Hanabi companion"), "status.no_network": NP_("oled", "No network"),
    "status.pin": NP_("oled", "PIN %(pin)s"), "status.pin_label": N_("PIN"),
    "camera.ok": NP_("oled", "Camera: OK"), "camera.missing": NP_("oled", "Camera: not found"),
    "camera.fault": NP_("oled", "Camera: fault"),
    "camera.fault.model": NP_("oled", "Card model: missing"),
    "camera.fault.profile": NP_("oled", "Deck profile: error"),
    "camera.fault.camera": NP_("oled", "Camera: no picture"),
    "no_game": NP_("oled", "No game yet"), "no_game.detail": NP_("oled", "Start one on the phone"),
    # teaching the family's deck
    "teach.lay": NP_("oled", "Lay in PLAY:"), "teach.count": NP_("oled", "%(done)s of %(total)s taught"),
    "teach.no_mat": NP_("oled", "Mat not in view"), "teach.got": NP_("oled", "Got it. OK?"),
    "teach.doubt": NP_("oled", "Looks like a %(value)s. OK?"),
    "teach.keys": NP_("oled", "OK = keep  UNDO = retake"), "teach.complete": NP_("oled", "All %(total)s taken"),
    "teach.complete.keys": NP_("oled", "OK = learn the deck"), "teach.fitting": NP_("oled", "Learning the deck"),
    "teach.saved": NP_("oled", "Deck taught ✓"), "teach.saved.detail": NP_("oled", "The box reads your cards now"),
    "teach.failed": NP_("oled", "Teaching failed"), "teach.failed.detail": NP_("oled", "See the phone for why"),
}


def text(lang: str, key: str, **params: object) -> str:
    """The line for ``key`` in ``lang`` with its parameters filled in."""
    return translate(LINES[key], check_language(lang), **params)


def card_name(lang: str, card: str) -> str:
    """``r3`` as the page and the OLED write it: "red 3", "czerwona 3", "rot 3", "červená 3"."""
    return f"{suit_name(card[0], check_language(lang))} {card[1]}"
