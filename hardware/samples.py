"""One example of every screen the box can show, by name.

The golden-image tests, the contact sheet and the benchmark all draw this same list, so a new
screen added here is checked, shown and timed at once.
"""
from __future__ import annotations

from .screens import Dashboard, Flash, GameOver, Prompt, Refusal, Screen, Status, Teaching
from .status import BootStatus
from .view import PendingCard, View

_MID = View(players=("Ann", "Ben", "Cat"), current=1, hints=5, hint_tokens=8, fuses_used=1,
            fuse_tokens=3, deck=27, score=7, max_score=25, turn=12, pace=11)
_FINAL = View(players=("Ann", "Maximilian"), current=1, hints=9, hint_tokens=9, fuses_used=2,
              fuse_tokens=3, deck=0, score=21, max_score=30, turn=48, final_turns_left=2, pace=-3)
_REWARD = View(players=("Zuzana", "Łukasz", "Jörg", "Ann"), current=0, hints=0, hint_tokens=8,
               fuses_used=0, fuse_tokens=2, deck=31, score=10, max_score=25, turn=20, reward_due=True, pace=20)
_BLACK_POWDER = View(players=("Ann", "Ben", "Cat", "Dan", "Eve"), current=4, hints=8, hint_tokens=8,
                     fuses_used=0, fuse_tokens=1, deck=40, score=-5, max_score=25, turn=1, pace=15)
_BOOT = BootStatus(address="192.168.1.23:8000", pin="4821", camera="ok")
_PAIRING = BootStatus("192.168.1.23:8000", "482193", "ok", token="oJ6Xb2vQ_k3Tn-8sWzR1aQ")


def _over(score: int, outcome: str, all_or_nothing: bool = False, asked: int = 0) -> GameOver:
    return GameOver(View(players=("Ann", "Ben"), current=0, hints=3, hint_tokens=8, fuses_used=1,
                         fuse_tokens=3, deck=0, score=score, max_score=25, turn=60, pace=0, over=True,
                         outcome=outcome, all_or_nothing=all_or_nothing, asked=asked, laid=38))


SAMPLES: dict[str, Screen] = {
    "dashboard": Dashboard(_MID),
    "dashboard_final_round": Dashboard(_FINAL),
    "dashboard_reward_due": Dashboard(_REWARD),
    "dashboard_black_powder": Dashboard(_BLACK_POWDER),
    "flash_hint": Flash("hint", number=4),
    "flash_played": Flash("played", card="r3"),
    "flash_misplay": Flash("misplay", card="y4", number=2, total=3),
    "flash_discarded": Flash("discarded", card="m2"),
    "flash_final_round": Flash("final_round", number=3),
    "flash_last_copy_lost": Flash("last_copy_lost", card="r3", number=21),
    "flash_pace_zero": Flash("pace_zero", number=0),
    "flash_undo_card": Flash("undo", card="b2"),
    "flash_undo_hint": Flash("undo"),
    "flash_reward_revealed": Flash("reward_revealed"),
    "flash_reward": Flash("reward", tile="color_clue"),
    "flash_corrected": Flash("corrected", card="g4", old="g3"),
    "flash_dismissed": Flash("dismissed"),
    "flash_resumed": Flash("resumed"),
    "flash_new_game": Flash("new_game", names=("Ann", "Ben", "Cat")),
    "flash_restored": Flash("restored", number=17),
    "prompt_play": Prompt(PendingCard("play", "r3", ("y3", "m3"))),
    "prompt_discard": Prompt(PendingCard("discard", "w4", ())),
    "refusal_no_hints": Refusal("no_hints"),
    "refusal_discard_max": Refusal("discard_max"),
    "refusal_nothing_to_undo": Refusal("nothing_to_undo"),
    "refusal_nothing_pending": Refusal("nothing_pending"),
    "refusal_game_over": Refusal("game_over"),
    "refusal_ended": Refusal("ended"),
    "refusal_no_game": Refusal("no_game"),
    "refusal_no_copies": Refusal("no_copies", card="b5"),
    "refusal_reward_first": Refusal("reward_first"),
    "refusal_rules": Refusal("rules"),
    "game_over_won": _over(25, "won"),
    "game_over_finished": _over(18, "finished"),
    "game_over_lost": _over(0, "lost"),
    "game_over_all_or_nothing": _over(23, "lost", all_or_nothing=True),
    "game_over_teach": _over(19, "finished", asked=11),
    "status": Status(_BOOT),
    "status_no_camera": Status(BootStatus(address=None, pin="0937", camera="missing")),
    "status_fault_model": Status(BootStatus("192.168.1.23:8000", "4821", "fault", "model")),
    "status_fault_profile": Status(BootStatus("192.168.1.23:8000", "4821", "fault", "profile")),
    "status_fault_camera": Status(BootStatus("192.168.1.23:8000", "4821", "fault", "camera")),
    "status_no_game": Status(_BOOT, game=False),
    "status_starting": Status(None, game=False),
    "status_pairing": Status(_PAIRING),
    "status_pairing_no_camera": Status(BootStatus("192.168.100.200:8000", "037415", "missing",
                                                  token=_PAIRING.token)),
    "status_pairing_fault_profile": Status(BootStatus("10.0.0.7:8000", "4821", "fault", "profile",
                                                      token=_PAIRING.token)),
    "teach_lay": Teaching("lay", "r1", 0, 25),
    "teach_lay_no_mat": Teaching("lay", "m4", 12, 30, mat=False),
    "teach_got": Teaching("got", "y3", 8, 25),
    "teach_doubt": Teaching("got", "y2", 7, 25, doubt="3"),
    "teach_complete": Teaching("complete", None, 25, 25),
    "teach_fitting": Teaching("fitting", done=14, total=25),
    "teach_saved": Teaching("saved"),
    "teach_failed": Teaching("failed"),
}
