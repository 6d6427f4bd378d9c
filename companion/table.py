"""The table session: an append-only event log over the rules, with undo, corrections and listeners.

Every command is judged first, then written to the store, and only then are listeners told, so
what a phone or the OLED shows is always something that would survive a power cut.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .cards import CardError, parse_card
from .rating import rating_line
from .rules import IllegalAction, LogError, State, apply, new_game, parse_action
from .store import Store, StoreError, StoreWriteError, Summary
from .tablelog import TableLog, player_names
from .variants import Variant, VariantError, parse_variant

log = logging.getLogger(__name__)

ENDED_REASON = "ended at the table"


class CommandError(ValueError):
    """A table command that cannot be carried out (bad input or against the rules)."""

    def __init__(self, message: str, illegal: bool = False):
        super().__init__(message)
        self.illegal = illegal  # True: the rules forbid it (HTTP 409); False: bad input (400)


class StoreFault(CommandError, StoreError):
    """The store could not save a command (a full, failing or read-only card), so it did not happen.

    A refusal like any other for the buttons, camera and page; ``reason`` is the store's code
    (disk_full, write_failed, read_only) and the message says what to do.
    """

    def __init__(self, error: StoreWriteError):
        CommandError.__init__(self, str(error))
        self.reason = error.reason


@dataclass(frozen=True)
class Pending:
    """A card the camera was unsure of, waiting for a person to confirm or correct it."""

    action: dict[str, Any]
    confidence: float
    candidates: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "card": self.action.get("card"), "confidence": self.confidence,
                "candidates": list(self.candidates)}


@dataclass(frozen=True)
class Change:
    """What one command did: a kind and parameters for translation, and an English line."""

    kind: str
    text: str
    params: dict[str, Any] = field(default_factory=dict)


Listener = Callable[["Table", Change], None]


def describe(before: State, after: State, action: dict[str, Any]) -> list[Change]:
    """Name what an action did, for flashes on the OLED and lines on the page."""
    out: list[Change] = []
    kind, card = action["type"], action.get("card")
    if kind == "hint":
        out.append(Change("hint", f"hint given: {after.hints} of {after.variant.hint_tokens} tokens left",
                          {"hints": after.hints}))
    elif kind == "discard":
        out.append(Change("discarded", f"{card} discarded", {"card": card}))
    elif kind == "play":
        if after.fuses_used > before.fuses_used:
            out.append(Change("misplay", f"misplay: fuse {after.fuses_used} of {after.variant.fuse_tokens}",
                              {"card": card, "fuses_used": after.fuses_used,
                               "fuse_tokens": after.variant.fuse_tokens}))
        else:
            out.append(Change("played", f"{card} played", {"card": card}))
        if after.pending_rewards:
            out.append(Change("reward_revealed", "firework complete: reveal a reward tile", {}))
    elif kind == "reward":
        out.append(Change("reward", f"reward tile: {action['tile']}", {"tile": action["tile"]}))
    if after.final_turns_left is not None and before.final_turns_left is None and not after.over:
        n = after.final_turns_left
        out.append(Change("final_round", f"final round: {n} turns left", {"turns_left": n}))
    if after.over:
        out.append(Change("game_over", f"game over: {after.outcome}, score {after.score}",
                          {"outcome": after.outcome, "score": after.score, "reason": after.reason}))
    return out


class Table:
    """The game on the table. Thread-safe; each command is all-or-nothing."""

    def __init__(self, store: Store | None = None):
        self.store = store
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.game_id: int | None = None
        self.players: tuple[str, ...] = ()
        self.variant: Variant = parse_variant("base")
        self.actions: list[dict[str, Any]] = []
        self._states: list[State] = []      # _states[i] = state after i actions
        self.ended = False
        self.pending: Pending | None = None
        self.last_event: Change | None = None
        self._seq = 0
        if store is not None:
            self._restore()

    # -- reading ------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return bool(self._states)

    @property
    def state(self) -> State:
        if not self._states:
            raise CommandError("no game yet: start one with the players' names and a variant")
        st = self._states[-1]
        if self.ended and not st.over:
            st = replace(st, over=True, outcome="finished", reason=ENDED_REASON)
        return st

    def log(self) -> TableLog:
        return TableLog(self.variant, self.players, tuple(self.actions))

    def snapshot(self) -> dict[str, Any]:
        """The table as the page and the API show it: the replay fields plus who and what."""
        with self._lock:
            if not self._states:
                return {"game_id": None, "players": [], "variant": None, "actions": 0,
                        "last_event": None, "pending": None, "over": False, "outcome": "no_game"}
            st = self.state
            out = st.as_dict()
            out["rating"] = rating_line(st.score, st.max_score, "en", st.variant.all_or_nothing)
            out.update(game_id=self.game_id, players=list(self.players), variant=self.variant.to_json(),
                       variant_options=self.variant.options(), actions=len(self.actions),
                       suits=self.variant.suits,
                       last_event=None if self.last_event is None else {
                           "kind": self.last_event.kind, "text": self.last_event.text,
                           "params": self.last_event.params},
                       pending=None if self.pending is None else self.pending.as_dict())
            return out

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    # -- commands -----------------------------------------------------------------------------
    def new_game(self, players: Any, variant: Any = "base", first_player: int = 0) -> Change:
        """Start a game; names are kept in turn order, starting with ``first_player``."""
        try:
            names = player_names(players)
            v = parse_variant(variant)
        except (LogError, VariantError) as e:
            raise CommandError(str(e)) from None
        if type(first_player) is not int or not 0 <= first_player < len(names):
            raise CommandError(f"first_player is an index 0-{len(names) - 1}; got {first_player!r}")
        names = names[first_player:] + names[:first_player]
        with self._lock:
            first = new_game(v, len(names))
            if self.store is not None:
                try:
                    self.game_id = self.store.new_game(list(names), v.to_json(), v.max_score)
                except StoreWriteError as e:
                    raise StoreFault(e) from None
            self.players, self.variant, self.actions, self._states = names, v, [], [first]
            self.ended, self.pending, self._seq = False, None, 1
            return self._tell(Change("new_game", f"new game: {', '.join(names)}",
                                     {"players": list(names), "variant": v.to_json()}))

    def act(self, raw: Any) -> Change:
        """One table-log action (hint, play, discard, reward)."""
        with self._lock:
            action = self._check_action(raw)
            before = self.state
            after = self._judge(before, action)
            self._write("action", action, after, len(self.actions) + 1)
            self.actions.append(action)
            self._states.append(after)
            self.pending = None
            changes = describe(before, after, action)
            for c in changes[:-1]:
                self._tell(c)
            return self._tell(changes[-1])

    def undo(self) -> Change:
        """Take back the last action (again and again, back to the start of the game)."""
        with self._lock:
            self._require_game()
            if self.pending is not None:
                self._write("dismiss", {}, self._states[-1], len(self.actions))
                self.pending = None
                return self._tell(Change("dismissed", "unsure card dismissed"))
            if self.ended:
                self._write("resume", {}, self._states[-1], len(self.actions))
                self.ended = False
                return self._tell(Change("resumed", "game resumed"))
            if not self.actions:
                raise CommandError("nothing to undo: no action yet in this game", illegal=True)
            undone = self.actions[-1]
            self._write("undo", {}, self._states[-2], len(self.actions) - 1)
            self.actions.pop()
            self._states.pop()
            return self._tell(Change("undo", f"undone: {_short(undone)}", {"action": undone}))

    def correct(self, index: Any, card: Any) -> Change:
        """Replace the card of an earlier play or discard; every later action is judged again."""
        with self._lock:
            self._require_game()
            if type(index) is not int or not 0 <= index < len(self.actions):
                raise CommandError(f"index must be an action number 0-{len(self.actions) - 1}; got {index!r}")
            if self.actions[index]["type"] not in ("play", "discard", "reward") or \
                    "card" not in self.actions[index]:
                raise CommandError(f"action {index} has no card to correct")
            try:
                new_card = str(parse_card(card))
            except CardError as e:
                raise CommandError(str(e)) from None
            actions = [dict(a) for a in self.actions]
            old = actions[index]["card"]
            actions[index]["card"] = new_card
            states = self._states[:index + 1]
            for i in range(index, len(actions)):
                try:
                    states.append(apply(states[-1], actions[i]))
                except IllegalAction as e:
                    raise CommandError(f"with {new_card} at action {index}, action {i} "
                                       f"({_short(actions[i])}) would be illegal: {e}", illegal=True) from None
            self._write("correct", {"index": index, "card": new_card}, states[-1], len(actions))
            self.actions, self._states = actions, states
            return self._tell(Change("corrected", f"action {index}: {old} corrected to {new_card}",
                                     {"index": index, "old": old, "card": new_card}))

    def end_game(self) -> Change:
        with self._lock:
            st = self.state
            if st.over:
                raise CommandError(f"the game is already over ({st.reason})", illegal=True)
            self._write("end", {}, replace(st, over=True, outcome="finished"), len(self.actions))
            self.ended = True
            return self._tell(Change("game_over", f"game over: ended at the table, score {st.score}",
                                     {"outcome": "finished", "score": st.score, "reason": ENDED_REASON}))

    def propose(self, raw: Any, confidence: float, candidates: list[str]) -> Change:
        """The camera saw a card it is unsure of: hold it until someone confirms or corrects it."""
        with self._lock:
            action = self._check_action(raw)
            self._judge(self.state, action)
            pending = Pending(action, float(confidence), tuple(candidates))
            self._write("pending", pending.as_dict(), self._states[-1], len(self.actions))
            self.pending = pending
            return self._tell(Change("pending", f"unsure: is it {action.get('card')}?",
                                     self.pending.as_dict()))

    def confirm(self, card: Any = None) -> Change:
        """Accept the unsure card (or the card the person names instead)."""
        with self._lock:
            if self.pending is None:
                raise CommandError("no unsure card is waiting to be confirmed", illegal=True)
            action = dict(self.pending.action)
            if card is not None:
                action["card"] = card
            return self.act(action)

    # -- inside -------------------------------------------------------------------------------
    def _require_game(self) -> None:
        if not self._states:
            raise CommandError("no game yet: start one with the players' names and a variant")

    def _check_action(self, raw: Any) -> dict[str, Any]:
        self._require_game()
        try:
            action = parse_action(raw)
        except LogError as e:
            raise CommandError(str(e)) from None
        out = dict(raw)
        if action.card is not None:
            out["card"] = str(action.card)  # " R1 " is stored as "r1"
        return out

    def _judge(self, state: State, action: dict[str, Any]) -> State:
        if self.ended:
            raise CommandError("the game was ended at the table; undo to resume it", illegal=True)
        try:
            return apply(state, action)
        except IllegalAction as e:
            raise CommandError(str(e), illegal=True) from None

    def _write(self, kind: str, payload: dict[str, Any], state: State, actions: int) -> None:
        """Save one event before memory changes: a store that cannot save it refuses the command."""
        if self.store is not None and self.game_id is not None:
            try:
                self.store.append(self.game_id, self._seq, kind, payload, _summary(state, actions))
            except StoreWriteError as e:
                raise StoreFault(e) from None
        self._seq += 1

    def _tell(self, change: Change) -> Change:
        self.last_event = change
        for fn in list(self._listeners):
            try:
                fn(self, change)
            except Exception:  # a broken screen must not break the game
                log.exception("listener %r failed on %s", fn, change.kind)
        return change

    def _restore(self) -> None:
        """Fold the latest game in the store back into memory, exactly as it was."""
        assert self.store is not None
        rec = self.store.latest_game()
        if rec is None:
            return
        self._load(rec.id)
        self.last_event = Change("restored", "game restored after a restart", {"actions": len(self.actions)})

    def _load(self, game_id: int) -> None:
        assert self.store is not None
        rec = self.store.game(game_id)
        if rec is None:
            raise CommandError(f"no game {game_id} in the store")
        self.game_id = rec.id
        self.players, self.variant = tuple(rec.players), parse_variant(rec.variant)
        self._states, self.actions = [new_game(self.variant, len(self.players))], []
        events = self.store.events(rec.id)
        for ev in events:
            self._replay_event(ev.kind, ev.payload)
        self._seq = (events[-1].seq + 1) if events else 1

    def _replay_event(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "action":
            self.actions.append(payload)
            self._states.append(apply(self._states[-1], payload))
            self.pending = None
        elif kind == "undo":
            self.actions.pop()
            self._states.pop()
        elif kind == "correct":
            i = payload["index"]
            self.actions[i] = {**self.actions[i], "card": payload["card"]}
            del self._states[i + 1:]
            for a in self.actions[i:]:
                self._states.append(apply(self._states[-1], a))
        elif kind == "end":
            self.ended = True
        elif kind == "resume":
            self.ended = False
        elif kind == "pending":
            self.pending = Pending(payload["action"], payload["confidence"], tuple(payload["candidates"]))
        elif kind == "dismiss":
            self.pending = None


def _summary(state: State, actions: int) -> Summary:
    return Summary(actions=actions, score=state.score, max_score=state.max_score, outcome=state.outcome)


def _short(action: dict[str, Any]) -> str:
    return " ".join(str(action[k]) for k in ("type", "card", "tile") if k in action)


def stored_log(store: Store, game_id: int) -> TableLog:
    """Any stored game as a table log (the actions in effect after undos and corrections)."""
    table = Table()
    table.store = store
    table._load(game_id)
    return table.log()
