"""The table session: an append-only event log over the rules, with undo, corrections and listeners.

Every command becomes an event (the kinds the store keeps: game, action, undo, correct, end, resume,
pending, dismiss). The event is judged by ``apply_event``, written to the store, and only then does
the table take the game it gave; restoring a stored game folds its events through the same
``apply_event``, so a game comes back exactly as it was played. Listeners are told after the
table's lock is released, in order and once per change, so a slow screen holds up nobody; what
they are told has already been stored, so it would survive a power cut.
"""
from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.words import LANGUAGES

from .cards import CardError, parse_card
from .rating import rating_line
from .reading import cards_shown, suggests_teaching
from .rules import IllegalAction, LogError, State, apply, new_game, parse_action
from .store import Store, StoreError, StoreWriteError, Summary
from .tablelog import TableLog, player_names
from .variants import Variant, VariantError, parse_variant

log = logging.getLogger(__name__)

ENDED_REASON = "ended at the table"
ENDED, NO_GAME = "ended", "no_game"  # codes: the game was ended at the table; there is no game yet
NO_GAME_TEXT = "no game yet: start one with the players' names and a variant"


class CommandError(ValueError):
    """A table command that cannot be carried out (bad input or against the rules).

    ``code`` says why for adapters, which key their own words on it (never on the message): a rule's
    code (``rules.RULE_CODES``), one of the table's (no_game, nothing_to_undo, nothing_pending,
    ended, bad_input) or the store's (disk_full, write_failed, read_only); ``card``: the card
    concerned, when there is one."""

    def __init__(self, message: str, illegal: bool = False, code: str = "bad_input", card: str | None = None):
        super().__init__(message)
        self.illegal = illegal  # True: the rules forbid it (HTTP 409); False: bad input (400)
        self.code = code
        self.card = card


class StoreFault(CommandError, StoreError):
    """The store could not save a command (a full, failing or read-only card), so it did not happen.

    A refusal like any other for the buttons, camera and page; ``reason`` is the store's code
    (disk_full, write_failed, read_only) and the message says what to do.
    """

    def __init__(self, error: StoreWriteError):
        CommandError.__init__(self, str(error), code=error.reason)
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
    """Name what an action did, for flashes on the OLED and lines on the page.

    The action's own change comes first, then the alerts (``pace_zero``, then ``last_copy_lost``),
    then ``final_round`` and ``game_over``. The last change is what ``act()`` returns and what the
    page keeps as its last event: a lost card is put after pace because it names the card and the
    new ceiling, which the table's state alone does not tell; pace and the final round stay in
    view on the dashboard anyway, and the end of the game is always last.
    """
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
    if kind in ("play", "discard") and card is not None and not after.over:
        out.extend(_alerts(before, after, card))
    if after.final_turns_left is not None and before.final_turns_left is None and not after.over:
        n = after.final_turns_left
        out.append(Change("final_round", f"final round: {n} turns left", {"turns_left": n}))
    if after.over:
        out.append(Change("game_over", f"game over: {after.outcome}, score {after.score}",
                          {"outcome": after.outcome, "score": after.score, "reason": after.reason}))
    return out


def _alerts(before: State, after: State, card: str) -> list[Change]:
    """What a card leaving a hand cost: pace used up, or a card a firework needed gone for good.

    A card is lost exactly when the top its firework can still reach drops: that covers a last
    copy below the reachable top in every variant (black built downwards, short rainbow with one
    copy of each), and leaves out cards below the firework's top or above a card already lost. A
    card built on its firework loses nothing, so the count is not even made then. Not told once
    the game is over: the end says it all.
    """
    out: list[Change] = []
    if before.pace > 0 >= after.pace:
        out.append(Change("pace_zero", f"pace {after.pace}: no spare turns left for discards",
                          {"pace": after.pace}))
    suit = card[0]
    built = len(after.played) > len(before.played)
    if not built and after.reachable_per_suit()[suit] != before.reachable_per_suit()[suit]:
        out.append(Change("last_copy_lost", f"last {card} lost: at most {after.reachable_score} points now",
                          {"card": card, "reachable_score": after.reachable_score}))
    return out


@dataclass(frozen=True)
class Event:
    """One entry of a game's log, as the store keeps it: a ``kind`` and its JSON ``payload``."""

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """One game as its events left it. Never changed in place: ``apply_event`` makes the next one,
    so a reader holding a Game sees one moment, whatever the table does meanwhile."""

    players: tuple[str, ...]
    variant: Variant
    actions: tuple[dict[str, Any], ...]
    states: tuple[State, ...]           # states[i]: the state after i actions
    ended: bool = False
    pending: Pending | None = None
    asked: int = 0                      # cards the camera was unsure of this game (one per ``pending`` event)

    @property
    def laid(self) -> int:
        """Cards played or discarded so far."""
        return sum(a["type"] in ("play", "discard") for a in self.actions)

    @property
    def cards_shown(self) -> int:
        """Cards this game showed the camera (``reading.cards_shown``)."""
        return cards_shown(self.asked, self.laid)

    @property
    def suggests_teaching(self) -> bool:
        """The camera asked about so many of this game's cards that teaching it the deck would pay
        off (``reading.suggests_teaching``): the page, the OLED and the voice say so alike."""
        return suggests_teaching(self.asked, self.laid)

    @property
    def state(self) -> State:
        """The state now; a game ended at the table reads as finished."""
        st = self.states[-1]
        if self.ended and not st.over:
            st = replace(st, over=True, outcome="finished", reason=ENDED_REASON, reason_code=ENDED)
        return st

    def log(self) -> TableLog:
        return TableLog(self.variant, self.players, self.actions)


def apply_event(game: Game | None, event: Event) -> Game:
    """The game after ``event``: the one step of the table's log, taken live and on restore.

    Raises CommandError, and nothing changes, when the event cannot happen now: a command is
    judged by trying it here before it is written.
    """
    kind, p = event.kind, event.payload
    if kind == "game":
        try:
            names, variant = player_names(p["players"]), parse_variant(p["variant"])
        except (LogError, VariantError) as e:
            raise CommandError(str(e)) from None
        return Game(names, variant, (), (new_game(variant, len(names)),))
    if game is None:
        raise CommandError(NO_GAME_TEXT, code=NO_GAME)
    if kind == "action":
        action = _canonical(p)
        return replace(game, actions=game.actions + (action,), states=game.states + (_judge(game, action),),
                       pending=None)
    if kind == "undo":
        if not game.actions:
            raise CommandError("nothing to undo: no action yet in this game", illegal=True, code="nothing_to_undo")
        return replace(game, actions=game.actions[:-1], states=game.states[:-1])
    if kind == "correct":
        return _corrected(game, p["index"], p["card"])
    if kind == "end":
        if game.state.over:
            raise CommandError(f"the game is already over ({game.state.reason})", illegal=True, code="game_over")
        return replace(game, ended=True)
    if kind == "resume":
        return replace(game, ended=False)
    if kind == "pending":
        action = _canonical(p["action"])
        _judge(game, action)
        return replace(game, pending=Pending(action, float(p["confidence"]), tuple(p["candidates"])),
                       asked=game.asked + 1)
    if kind == "dismiss":
        return replace(game, pending=None)
    raise CommandError(f"unknown table event {kind!r}")


def _canonical(raw: Any) -> dict[str, Any]:
    """A well-formed action with its card in canonical notation (" R1 " is kept as "r1")."""
    try:
        action = parse_action(raw)
    except LogError as e:
        raise CommandError(str(e)) from None
    out = dict(raw)
    if action.card is not None:
        out["card"] = str(action.card)
    return out


def _judge(game: Game, action: dict[str, Any]) -> State:
    """The state after ``action``, or CommandError saying why the table refuses it."""
    if game.ended:
        raise CommandError("the game was ended at the table; undo to resume it", illegal=True, code=ENDED)
    try:
        return apply(game.states[-1], action)
    except IllegalAction as e:
        raise CommandError(str(e), illegal=True, code=e.code, card=e.card) from None


def _corrected(game: Game, index: Any, card: Any) -> Game:
    """``game`` with the card of action ``index`` replaced and every later action judged again."""
    if type(index) is not int or not 0 <= index < len(game.actions):
        raise CommandError(f"index must be an action number 0-{len(game.actions) - 1}; got {index!r}")
    if game.actions[index]["type"] not in ("play", "discard", "reward") or "card" not in game.actions[index]:
        raise CommandError(f"action {index} has no card to correct")
    new_card = _card(card)
    actions = list(game.actions)
    actions[index] = {**actions[index], "card": new_card}
    states = list(game.states[:index + 1])
    for i in range(index, len(actions)):
        try:
            states.append(apply(states[-1], actions[i]))
        except IllegalAction as e:
            raise CommandError(f"with {new_card} at action {index}, action {i} "
                               f"({_short(actions[i])}) would be illegal: {e}", illegal=True,
                               code=e.code, card=e.card) from None
    return replace(game, actions=tuple(actions), states=tuple(states))


def _card(card: Any) -> str:
    try:
        return str(parse_card(card))
    except CardError as e:
        raise CommandError(str(e)) from None


class Table:
    """The game on the table. Thread-safe; each command is all-or-nothing.

    ``Table(store)`` comes back with the latest stored game (``Table.from_store`` with any game).
    """

    def __init__(self, store: Store | None = None):
        self.store = store
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._outbox: deque[Change] = deque()   # told, not yet delivered: filled under the lock
        self._delivering = threading.Lock()     # held by the one thread delivering the outbox
        self._game: Game | None = None
        self.game_id: int | None = None
        self.lang: str | None = None            # the language chosen for the game; None: the box's
        self.last_event: Change | None = None
        self._seq = 0
        if store is not None:
            self._load(None)

    @classmethod
    def from_store(cls, store: Store, game_id: int | None = None) -> Table:
        """The table as it was at game ``game_id`` (the latest game if None), its events folded
        through ``apply_event`` exactly as they were live; new commands go on with that game."""
        table = cls()
        table.store = store
        table._load(game_id)
        return table

    # -- reading ------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The game now, as one immutable value (None before the first game)."""
        return self._game

    @property
    def started(self) -> bool:
        return self._game is not None

    @property
    def state(self) -> State:
        return self._current().state

    @property
    def players(self) -> tuple[str, ...]:
        return () if self._game is None else self._game.players

    @property
    def variant(self) -> Variant:
        return _BASE if self._game is None else self._game.variant

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [] if self._game is None else list(self._game.actions)

    @property
    def ended(self) -> bool:
        return self._game is not None and self._game.ended

    @property
    def pending(self) -> Pending | None:
        return None if self._game is None else self._game.pending

    def log(self) -> TableLog:
        game = self._game
        return TableLog(_BASE, (), ()) if game is None else game.log()

    def snapshot(self) -> dict[str, Any]:
        """The table as the page and the API show it: the replay fields plus who and what."""
        with self._lock:
            game, game_id, last = self._game, self.game_id, self.last_event
        if game is None:
            return {"game_id": None, "players": [], "variant": None, "actions": 0,
                    "last_event": None, "pending": None, "asked": 0, "cards_shown": 0, "suggest_teaching": False,
                    "over": False,
                    "outcome": "no_game"}
        st = game.state
        out = st.as_dict()
        out["rating"] = rating_line(st.score, st.max_score, "en", st.variant.all_or_nothing)
        out["reason_key"] = st.reason_code
        out.update(game_id=game_id, players=list(game.players), variant=game.variant.to_json(),
                   variant_options=game.variant.options(), actions=len(game.actions),
                   suits=game.variant.suits,
                   last_event=None if last is None else {"kind": last.kind, "text": last.text,
                                                         "params": last.params},
                   pending=None if game.pending is None else game.pending.as_dict(), asked=game.asked,
                   cards_shown=game.cards_shown, suggest_teaching=game.suggests_teaching)
        return out

    def add_listener(self, fn: Listener) -> None:
        """``fn(table, change)`` is called for every change, after the table's lock is released."""
        with self._lock:
            self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        with self._lock:
            if fn in self._listeners:
                self._listeners.remove(fn)

    # -- commands -----------------------------------------------------------------------------
    def new_game(self, players: Any, variant: Any = "base", first_player: int = 0,
                 lang: str | None = None) -> Change:
        """Start a game; names are kept in turn order, starting with ``first_player``. ``lang`` is the
        language chosen for the game, stored with it (None: the box's own)."""
        if lang is not None and lang not in LANGUAGES:
            raise CommandError(f"lang is one of {', '.join(LANGUAGES)}; got {lang!r}")
        try:
            names = player_names(players)
            v = parse_variant(variant)
        except (LogError, VariantError) as e:
            raise CommandError(str(e)) from None
        if type(first_player) is not int or not 0 <= first_player < len(names):
            raise CommandError(f"first_player is an index 0-{len(names) - 1}; got {first_player!r}")
        names = names[first_player:] + names[:first_player]
        event = Event("game", {"players": list(names), "variant": v.to_json()})

        def run() -> list[Change]:
            game = apply_event(None, event)
            if self.store is not None:
                try:
                    self.game_id = self.store.new_game(list(names), v.to_json(), v.max_score, lang)
                except StoreWriteError as e:
                    raise StoreFault(e) from None
            self._game, self._seq, self.lang = game, 1, lang
            return [Change("new_game", f"new game: {', '.join(names)}",
                           {"players": list(names), "variant": v.to_json()})]
        return self._command(run)

    def act(self, raw: Any) -> Change:
        """One table-log action (hint, play, discard, reward)."""
        return self._command(lambda: self._act(raw))

    def undo(self) -> Change:
        """Take back the last action (again and again, back to the start of the game); an unsure
        card waiting is dismissed first, and a game ended at the table is resumed first."""
        def run() -> list[Change]:
            game = self._current()
            if game.pending is not None:
                self._commit(Event("dismiss"))
                return [Change("dismissed", "unsure card dismissed")]
            if game.ended:
                self._commit(Event("resume"))
                return [Change("resumed", "game resumed")]
            self._commit(Event("undo"))
            return [Change("undo", f"undone: {_short(game.actions[-1])}", {"action": game.actions[-1]})]
        return self._command(run)

    def correct(self, index: Any, card: Any) -> Change:
        """Replace the card of an earlier play or discard; every later action is judged again."""
        def run() -> list[Change]:
            before = self._current()
            after = self._commit(Event("correct", {"index": index, "card": _card(card)}))
            old, new = before.actions[index]["card"], after.actions[index]["card"]
            return [Change("corrected", f"action {index}: {old} corrected to {new}",
                           {"index": index, "old": old, "card": new})]
        return self._command(run)

    def end_game(self) -> Change:
        def run() -> list[Change]:
            score = self._commit(Event("end")).state.score
            return [Change("game_over", f"game over: ended at the table, score {score}",
                           {"outcome": "finished", "score": score, "reason": ENDED_REASON})]
        return self._command(run)

    def propose(self, raw: Any, confidence: float, candidates: list[str]) -> Change:
        """The camera saw a card it is unsure of: hold it until someone confirms or corrects it."""
        def run() -> list[Change]:
            self._current()
            action = _canonical(raw)
            pending = Pending(action, float(confidence), tuple(candidates))
            self._commit(Event("pending", pending.as_dict()))
            return [Change("pending", f"unsure: is it {action.get('card')}?", pending.as_dict())]
        return self._command(run)

    def confirm(self, card: Any = None) -> Change:
        """Accept the unsure card (or the card the person names instead)."""
        def run() -> list[Change]:
            pending = self.pending
            if pending is None:
                raise CommandError("no unsure card is waiting to be confirmed", illegal=True, code="nothing_pending")
            action = dict(pending.action)
            if card is not None:
                action["card"] = card
            return self._act(action)
        return self._command(run)

    # -- inside -------------------------------------------------------------------------------
    def _current(self) -> Game:
        game = self._game
        if game is None:
            raise CommandError(NO_GAME_TEXT, code=NO_GAME)
        return game

    def _act(self, raw: Any) -> list[Change]:
        before = self._current()
        event = Event("action", _canonical(raw))
        after = self._commit(event)
        return describe(before.state, after.state, event.payload)

    def _commit(self, event: Event) -> Game:
        """Judge ``event``, write it, then take the game it gives: a refused or unsaved event
        changes nothing. Called with the lock held."""
        game = apply_event(self._game, event)
        if self.store is not None and self.game_id is not None:
            try:
                self.store.append(self.game_id, self._seq, event.kind, event.payload,
                                  _summary(game.state, len(game.actions)))
            except StoreWriteError as e:
                raise StoreFault(e) from None
        self._game, self._seq = game, self._seq + 1
        return game

    def _command(self, run: Callable[[], list[Change]]) -> Change:
        """Run one command under the lock, queue what it changed, and deliver it once released."""
        with self._lock:
            changes = run()
            self.last_event = changes[-1]
            self._outbox.extend(changes)
        self._deliver()
        return changes[-1]

    def _deliver(self) -> None:
        """Tell the listeners every queued change, in order and once each, outside the table's lock.

        One thread at a time delivers; a thread that finds the delivery busy leaves its changes to
        it, so a listener that blocks holds up no command. The outbox is looked at again after the
        delivery is released: a change queued just then is not left behind.
        """
        while self._outbox:
            if not self._delivering.acquire(blocking=False):
                return
            try:
                while True:
                    with self._lock:
                        if not self._outbox:
                            break
                        change = self._outbox.popleft()
                        listeners = list(self._listeners)
                    for fn in listeners:
                        try:
                            fn(self, change)
                        except Exception:  # a broken screen must not break the game
                            log.exception("listener %r failed on %s", fn, change.kind)
            finally:
                self._delivering.release()

    def _load(self, game_id: int | None) -> None:
        """Fold a stored game (the latest if None) back into memory, exactly as it was."""
        assert self.store is not None
        rec = self.store.latest_game() if game_id is None else self.store.game(game_id)
        if rec is None:
            if game_id is None:
                return
            raise CommandError(f"no game {game_id} in the store")
        events = self.store.events(rec.id)
        game: Game | None = None
        for ev in events:
            try:
                game = apply_event(game, Event(ev.kind, ev.payload))
            except CommandError as e:
                raise CommandError(f"game {rec.id} cannot be restored: its event {ev.seq} ({ev.kind}) "
                                   f"is refused: {e}", code=e.code, card=e.card) from None
        if game is None:  # every game is stored with its first event: this one was cut short
            raise CommandError(f"game {rec.id} has no events in the store")
        with self._lock:
            self._game, self.game_id, self._seq, self.lang = game, rec.id, events[-1].seq + 1, rec.lang
            self.last_event = Change("restored", "game restored after a restart", {"actions": len(game.actions)})


_BASE = parse_variant("base")  # what a table with no game yet reports as its variant


def _summary(state: State, actions: int) -> Summary:
    return Summary(actions=actions, score=state.score, max_score=state.max_score, outcome=state.outcome)


def _short(action: dict[str, Any]) -> str:
    return " ".join(str(action[k]) for k in ("type", "card", "tile") if k in action)


def stored_log(store: Store, game_id: int) -> TableLog:
    """Any stored game as a table log (the actions in effect after undos and corrections)."""
    return Table.from_store(store, game_id).log()
