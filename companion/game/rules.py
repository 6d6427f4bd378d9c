"""The rules of Hanabi as pure functions: ``apply(state, action)`` returns the next state or raises.

The box sees only public information (played, discarded and drawn cards), so the state holds
counts for hands and the deck, never their contents. Every refusal names the rule that forbids it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card, CardError, parse_card
from .variants import REWARD_TILES, Variant

MIN_PLAYERS, MAX_PLAYERS = 2, 5
ACTION_TYPES = ("hint", "play", "discard", "reward")


class LogError(ValueError):
    """Input that is not a well-formed action or game (wrong shape, unknown card notation).
    ``index``: the action of a table log that is at fault (set by ``fold``)."""

    index: int | None = None


class IllegalAction(Exception):
    """A well-formed action that the rules forbid in this state. ``code`` names the rule for
    adapters (their words for it are theirs), ``card`` is the card concerned when there is one,
    ``index`` the action of a table log at fault (set by ``fold``)."""

    index: int | None = None

    def __init__(self, message: str, rule: str, card: str | None = None):
        super().__init__(f"{message} ({rule})")
        self.message = message
        self.rule = rule
        self.code = RULE_CODES[rule]
        self.card = card


# Rules named in refusals: what the rule says, in the project's own words.
R_HINT = "rule: giving a clue spends a hint token, so it needs one on the table"
R_DISCARD = "rule: discarding brings a hint token back, so it is not allowed while all hint tokens are on the table"
R_DECK = "rule: the box holds only so many copies of each card"
R_SUIT = "rule: this card's suit is not part of the chosen variant"
R_HAND = "rule: a player with no cards left cannot play or discard"
R_OVER = "rule: nothing more happens once the game has ended"
R_REWARD = "rule (Five Magnificent): a reward tile is revealed only when a firework is completed"
R_PENDING = "rule (Five Magnificent): the revealed reward tile is resolved before the game goes on"
R_TILE = "rule (Five Magnificent): each reward tile is used once"
R_RESCUE = "rule (Five Magnificent): a rescued card must come from the discard pile and fit its firework"
R_RESHUFFLE = "rule (Five Magnificent): a reshuffled card must come from the discard pile"
R_RESHUFFLE_EMPTY = ("rule (Five Magnificent): with an empty deck the reshuffle tile can only be used "
                     "as a rescue (\"as\": \"rescue\")")
R_ANNOUNCE = "rule (synchronized show): a colour can be announced only in that variant"
R_CLUE_BLACK = "rule (black powder): black cards have no colour and cannot be named in a clue"
R_CLUE_WILD = "rule (wild rainbow): multicolour cannot be named in a clue"
R_CLUE = "rule: a clue names one colour in the game or one value 1-5"
R_TARGET = "rule: a clue is given to another player"
# The code of each rule: what adapters (the OLED, the page) key their own words on.
RULE_CODES = {R_HINT: "no_hints", R_DISCARD: "discard_max", R_DECK: "no_copies", R_SUIT: "no_such_suit",
              R_HAND: "empty_hand", R_OVER: "game_over", R_REWARD: "no_reward", R_PENDING: "reward_first",
              R_TILE: "tile_used", R_RESCUE: "bad_rescue", R_RESHUFFLE: "bad_reshuffle",
              R_RESHUFFLE_EMPTY: "reshuffle_empty", R_ANNOUNCE: "no_announce", R_CLUE_BLACK: "clue_black",
              R_CLUE_WILD: "clue_wild", R_CLUE: "bad_clue", R_TARGET: "clue_target"}
# Why a game ended, as codes (the English ``reason`` says it in words).
END_COMPLETE, END_FUSE, END_CARD_LOST, END_FINAL, END_STUCK = "complete", "fuse", "card_lost", "final", "stuck"


def hand_size(players: int) -> int:
    """Five cards each with two or three players, four with four or five."""
    return 5 if players <= 3 else 4


@dataclass(frozen=True)
class State:
    """Everything public about a game at one moment. Immutable: each action makes a new one."""

    variant: Variant
    players: int
    hints: int
    fuses_used: int
    deck: int
    fireworks: tuple[int, ...]          # top value per suit in variant.suits order, 0 = none
    discards: tuple[str, ...]           # in the order they reached the pile
    played: tuple[str, ...]             # cards built into fireworks
    hands: tuple[int, ...]              # cards held per player
    current_player: int = 0
    turns: int = 0                      # turns completed
    final_turns_left: int | None = None
    over: bool = False
    outcome: str = "in_progress"        # in_progress | won | lost | finished
    reason: str | None = None
    reason_code: str | None = None      # the end's reason as a code (END_*), for adapters
    tiles_left: tuple[str, ...] = REWARD_TILES
    pending_rewards: int = 0            # reward tiles revealed and not yet resolved
    draw_pending: bool = False          # the completing player draws after the tiles are resolved
    last_struck: bool = False

    # -- derived public information -------------------------------------------------------
    def top(self, suit: str) -> int:
        return self.fireworks[self.variant.suits.index(suit)]

    def fireworks_map(self) -> dict[str, int]:
        return dict(zip(self.variant.suits, self.fireworks, strict=True))

    def next_value(self, suit: str) -> int | None:
        """The value that continues this firework, or None when it is complete."""
        top = self.top(suit)
        if suit == "k":  # black powder is built 5 down to 1
            return 5 if top == 0 else (top - 1 or None)
        return top + 1 if top < 5 else None

    def complete(self, suit: str) -> bool:
        return self.next_value(suit) is None

    def all_complete(self) -> bool:
        return all(self.complete(s) for s in self.variant.suits)

    def built_score(self) -> int:
        """Sum of the coloured fireworks, minus one per card missing from the black one."""
        total = sum(self.top(s) for s in self.variant.scoring_suits)
        if self.variant.black_powder:
            total -= _black_missing(self.top("k"))
        return total

    @property
    def score(self) -> int:
        if self.last_struck and self.variant.strikeout_score == "zero":
            return 0
        return self.built_score()

    @property
    def max_score(self) -> int:
        return self.variant.max_score

    def seen(self) -> Counter[Card]:
        return Counter(parse_card(c) for c in self.discards + self.played)

    def remaining(self, card: Card) -> int:
        """Copies of a card not yet played or discarded (in the deck or in hands)."""
        name = str(card)
        return self.variant.card_counts[card] - self.discards.count(name) - self.played.count(name)

    def needed(self, suit: str) -> list[int]:
        """Values still to be built on a firework, in building order."""
        top = self.top(suit)
        if suit == "k":
            return list(range(top - 1 if top else 5, 0, -1))
        return list(range(top + 1, 6))

    def reachable_per_suit(self) -> dict[str, int]:
        """The top each firework can still reach, given what has been discarded."""
        counts, seen = self.variant.deck_counts(), self.seen()
        out = {}
        for suit in self.variant.suits:
            top = self.top(suit)
            for v in self.needed(suit):
                if counts[Card(suit, v)] - seen[Card(suit, v)] <= 0:
                    break
                top = v
            out[suit] = top
        return out

    @property
    def reachable_score(self) -> int:
        if self.over:
            return self.score
        reach = self.reachable_per_suit()
        total = sum(reach[s] for s in self.variant.scoring_suits)
        if self.variant.black_powder:
            total -= _black_missing(reach["k"])
        return total

    def critical_cards(self) -> list[str]:
        """Cards still needed whose every other copy is gone: discarding one loses points."""
        counts, seen = self.variant.deck_counts(), self.seen()
        out = []
        for suit in self.variant.suits:
            for v in self.needed(suit):
                card = Card(suit, v)
                if counts[card] - seen[card] == 1:
                    out.append(str(card))
        return out

    def indispensable_lost(self) -> bool:
        """A card that a firework still needs has no copy left (all-or-nothing loses then)."""
        return any(r != (1 if s == "k" else 5) for s, r in self.reachable_per_suit().items())

    @property
    def pace(self) -> int:
        """Plays still possible beyond those needed: turns left minus cards still to build."""
        to_build = sum(len(self.needed(s)) for s in self.variant.suits)
        return self.deck + self.players - to_build

    def as_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "max_score": self.max_score,
            "reachable_score": self.reachable_score,
            "hints": self.hints,
            "hint_tokens": self.variant.hint_tokens,
            "fuses_used": self.fuses_used,
            "fuse_tokens": self.variant.fuse_tokens,
            "deck": self.deck,
            "fireworks": self.fireworks_map(),
            "discards": list(self.discards),
            "turn": self.turns + (0 if self.over else 1),
            "current_player": self.current_player,
            "final_turns_left": self.final_turns_left,
            "over": self.over,
            "outcome": self.outcome,
            "reason": self.reason,
            "hands": list(self.hands),
            "critical": self.critical_cards(),
            "pace": self.pace,
            "reward_tiles_left": list(self.tiles_left) if self.variant.rewards else [],
            "pending_reward": self.pending_rewards > 0,
        }


def _black_missing(top: int) -> int:
    """Cards missing from a black firework whose top card is ``top`` (0 = not started)."""
    return 5 if top == 0 else top - 1


def new_game(variant: Variant, players: int) -> State:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise LogError(f"Hanabi is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players!r}")
    size = hand_size(players)
    return State(
        variant=variant, players=players, hints=variant.hint_tokens, fuses_used=0,
        deck=variant.deck_size() - players * size,
        fireworks=tuple(0 for _ in variant.suits), discards=(), played=(),
        hands=tuple(size for _ in range(players)),
    )


# -- parsing actions --------------------------------------------------------------------------
@dataclass(frozen=True)
class Action:
    type: str
    card: Card | None = None
    to: int | None = None
    clue: str | None = None
    announce: str | None = None
    tile: str | None = None
    as_: str | None = None


def parse_action(raw: Any) -> Action:
    """Check an action's shape and notation (not its legality)."""
    if not isinstance(raw, dict):
        raise LogError(f"an action is an object like {{\"type\": \"play\", \"card\": \"r1\"}}; got {raw!r}")
    kind = raw.get("type")
    if kind not in ACTION_TYPES:
        raise LogError(f"unknown action type {kind!r}; use one of: {', '.join(ACTION_TYPES)}")
    card = None
    try:
        if kind in ("play", "discard"):
            if "card" not in raw:
                raise LogError(f"a {kind} action needs the card, like {{\"type\": \"{kind}\", \"card\": \"r1\"}}")
            card = parse_card(raw["card"])
        elif kind == "reward" and raw.get("card") is not None:
            card = parse_card(raw["card"])
    except CardError as e:
        raise LogError(str(e)) from None
    to = raw.get("to")
    if to is not None and type(to) is not int:
        raise LogError(f"'to' is a player index (0 is the first player); got {to!r}")
    clue = raw.get("clue")
    if clue is not None:
        clue = str(clue).strip().lower()
        if not (len(clue) == 1 and (clue in "rygbwmk" or clue in "12345")):
            raise LogError(f"a clue is a suit letter or a value 1-5; got {raw.get('clue')!r}")
    announce = raw.get("announce")
    if announce is not None:
        if kind != "play":
            raise LogError("only a play can announce a colour")
        if not (isinstance(announce, str) and announce.strip().lower() in list("rygbwmk")):
            raise LogError(f"'announce' is a suit letter; got {announce!r}")
        announce = announce.strip().lower()
    tile = raw.get("tile")
    if kind == "reward" and tile not in REWARD_TILES:
        raise LogError(f"a reward action names its tile, one of: {', '.join(REWARD_TILES)}; got {tile!r}")
    as_ = raw.get("as")
    if as_ is not None and not (tile == "reshuffle" and as_ == "rescue"):
        raise LogError("only a reshuffle tile can be used \"as\": \"rescue\"")
    return Action(kind, card, to, clue, announce, tile if kind == "reward" else None, as_)


# -- applying actions -------------------------------------------------------------------------
def apply(state: State, action: Action | Mapping[str, Any]) -> State:
    """The state after ``action``; raises IllegalAction naming the rule, or LogError for bad shape."""
    if not isinstance(action, Action):
        action = parse_action(action)
    if state.over:
        raise IllegalAction(f"the game is over ({state.reason})", R_OVER)
    if state.pending_rewards and action.type != "reward":
        raise IllegalAction("a reward tile was revealed; record it first as a reward action", R_PENDING)
    if action.type == "hint":
        return _hint(state, action)
    if action.type == "reward":
        return _reward(state, action)
    if state.hands[state.current_player] == 0:
        raise IllegalAction(f"player {state.current_player + 1} holds no cards", R_HAND)
    assert action.card is not None
    _check_exists(state, action.card)
    if action.type == "discard" and state.hints >= state.variant.hint_tokens \
            and not state.variant.allow_discard_at_max_hints:
        raise IllegalAction(f"cannot discard {action.card}: all {state.variant.hint_tokens} hint tokens "
                            "are on the table", R_DISCARD)
    state = _leave_hand(state)
    if action.type == "discard":
        return _discard(state, action.card)
    return _play(state, action.card, action.announce)


def _check_exists(state: State, card: Card) -> None:
    if card.suit not in state.variant.suits:
        raise IllegalAction(f"{card} cannot be in this game: no {card.suit} cards in variant "
                            f"'{state.variant.preset}'", R_SUIT)
    if state.remaining(card) <= 0:
        total = state.variant.deck_counts()[card]
        raise IllegalAction(f"{card} cannot be here: the deck has {total} "
                            f"{'copy' if total == 1 else 'copies'} and all are already on the table", R_DECK, str(card))


def _check_clue(state: State, clue: str | None) -> None:
    if clue is None or clue.isdigit():
        return
    v = state.variant
    if clue == "k" and v.black_powder:
        raise IllegalAction("black cannot be named in a clue", R_CLUE_BLACK)
    if clue == "m" and v.multicolor == "wild":
        raise IllegalAction("multicolour cannot be named in a clue in the wild rainbow variant", R_CLUE_WILD)
    if clue not in v.suits:
        raise IllegalAction(f"there is no {clue} suit in this game", R_CLUE)


def _check_target(state: State, to: int | None) -> None:
    if to is not None and (not 0 <= to < state.players or to == state.current_player):
        raise IllegalAction(f"player index {to} cannot receive a clue from player "
                            f"{state.current_player}", R_TARGET)


def _hint(state: State, action: Action) -> State:
    if state.hints <= 0:
        raise IllegalAction("no hint token left", R_HINT)
    _check_clue(state, action.clue)
    _check_target(state, action.to)
    return _end_turn(replace(state, hints=state.hints - 1), drew_last=False)


def _gain_hint(state: State) -> State:
    return replace(state, hints=min(state.hints + 1, state.variant.hint_tokens))


def _discard(state: State, card: Card) -> State:
    state = _gain_hint(replace(state, discards=state.discards + (str(card),)))
    return _after_card_leaves(state)


def _playable(state: State, card: Card) -> bool:
    return state.next_value(card.suit) == card.value


def _announce_right(state: State, card: Card, announce: str) -> bool:
    if card.suit == "m" and state.variant.multicolor == "wild":
        return announce != "k"
    return announce == card.suit and card.suit != "k"


def _play(state: State, card: Card, announce: str | None) -> State:
    v = state.variant
    if announce is not None:
        if not v.synchronized_show:
            raise IllegalAction("a colour was announced but synchronized show is not played", R_ANNOUNCE)
        if announce not in v.suits:
            raise IllegalAction(f"there is no {announce} suit in this game", R_CLUE)
        if announce == "k":
            raise IllegalAction("black cannot be announced", R_CLUE_BLACK)
        if announce == "m" and v.multicolor == "wild":
            raise IllegalAction("multicolour cannot be named in the wild rainbow variant", R_CLUE_WILD)
    if not _playable(state, card) or (announce is not None and not _announce_right(state, card, announce)):
        return _misplay(state, card)
    state = _build(state, card)
    if announce is not None:
        state = _gain_hint(state)
    if state.all_complete():
        return _finish(state, "won", "every firework is complete", END_COMPLETE)
    if state.pending_rewards:
        return replace(state, draw_pending=True)
    return _after_card_leaves(state)


def _build(state: State, card: Card) -> State:
    """Put a card on its firework; completing one earns a hint token or reveals a reward tile."""
    i = state.variant.suits.index(card.suit)
    fw = list(state.fireworks)
    fw[i] = card.value
    state = replace(state, fireworks=tuple(fw), played=state.played + (str(card),))
    if state.complete(card.suit):
        if state.variant.rewards and len(state.tiles_left) > state.pending_rewards:
            return replace(state, pending_rewards=state.pending_rewards + 1)
        return _gain_hint(state)
    return state


def _misplay(state: State, card: Card) -> State:
    fuses = state.fuses_used + 1
    state = replace(state, fuses_used=fuses, discards=state.discards + (str(card),))
    if fuses >= state.variant.fuse_tokens:
        state = replace(state, last_struck=True)
        return _finish(state, "lost", f"the last fuse burned ({card} misplayed)", END_FUSE)
    return _after_card_leaves(state)


def _after_card_leaves(state: State) -> State:
    """The card's owner draws while the deck lasts, then the turn ends."""
    if state.variant.all_or_nothing and state.indispensable_lost():
        return _finish(state, "lost", "a card needed to finish a firework has no copy left", END_CARD_LOST)
    if state.deck == 0:
        return _end_turn(state, drew_last=False)
    hands = list(state.hands)
    hands[state.current_player] += 1
    return _end_turn(replace(state, deck=state.deck - 1, hands=tuple(hands)), drew_last=state.deck == 1)


def _leave_hand(state: State) -> State:
    hands = list(state.hands)
    hands[state.current_player] -= 1
    return replace(state, hands=tuple(hands))


def _end_turn(state: State, drew_last: bool) -> State:
    final = state.final_turns_left
    if final is not None:
        final -= 1
    elif drew_last and not state.variant.all_or_nothing:
        final = state.players  # everyone, the drawer included, has one more turn
    state = replace(state, turns=state.turns + 1, final_turns_left=final,
                    current_player=(state.current_player + 1) % state.players, draw_pending=False)
    if final == 0:
        return _finish(state, "finished", "the final round is over", END_FINAL)
    if state.variant.all_or_nothing and sum(state.hands) == 0 and state.hints == 0:
        return _finish(state, "lost", "no player can act: no cards and no hint tokens left", END_STUCK)
    return state


def _finish(state: State, outcome: str, reason: str, code: str) -> State:
    return replace(state, over=True, outcome=outcome, reason=reason, reason_code=code, pending_rewards=0)


# -- Five Magnificent reward tiles ------------------------------------------------------------
def _reward(state: State, action: Action) -> State:
    if not state.variant.rewards:
        raise IllegalAction("reward tiles are not used in this variant", R_REWARD)
    if not state.pending_rewards:
        raise IllegalAction("no reward tile has been revealed", R_REWARD)
    tile = action.tile
    if tile not in state.tiles_left:
        raise IllegalAction(f"the {tile} tile has already been used", R_TILE)
    state = replace(state, tiles_left=tuple(t for t in state.tiles_left if t != tile),
                    pending_rewards=state.pending_rewards - 1)
    effect = "rescue" if action.as_ == "rescue" else tile
    if tile == "reshuffle" and effect == "reshuffle" and state.deck == 0 and action.card is not None:
        raise IllegalAction("the deck is empty", R_RESHUFFLE_EMPTY)
    if effect == "hint":
        state = _gain_hint(state)
    elif effect == "fuse":
        state = _gain_hint(replace(state, fuses_used=max(0, state.fuses_used - 1)))
    elif effect in ("color_clue", "value_clue"):
        if action.clue is not None and (action.clue.isdigit() != (effect == "value_clue")):
            raise IllegalAction(f"the {effect} tile gives a {'value' if effect == 'value_clue' else 'colour'} clue",
                                R_CLUE)
        _check_clue(state, action.clue)
    elif effect == "reshuffle" and action.card is not None:
        state = _take_from_discards(state, action.card, R_RESHUFFLE)
        state = replace(state, deck=state.deck + 1)
    elif effect == "rescue" and action.card is not None:
        state = _take_from_discards(state, action.card, R_RESCUE)
        if not _playable(state, action.card):
            raise IllegalAction(f"{action.card} does not fit its firework", R_RESCUE)
        state = _build(state, action.card)
        if state.all_complete():
            return _finish(state, "won", "every firework is complete", END_COMPLETE)
    if state.pending_rewards == 0 and state.draw_pending:
        return _after_card_leaves(state)
    return state


def _take_from_discards(state: State, card: Card, rule: str) -> State:
    pile = list(state.discards)
    if str(card) not in pile:
        raise IllegalAction(f"{card} is not in the discard pile", rule)
    # take the most recent copy
    del pile[len(pile) - 1 - pile[::-1].index(str(card))]
    return replace(state, discards=tuple(pile))


def fold(variant: Variant, players: int, actions: list[Any]) -> State:
    """Fold a whole table log; errors carry the index of the action that failed."""
    state = new_game(variant, players)
    for i, raw in enumerate(actions):
        try:
            state = apply(state, raw)
        except (IllegalAction, LogError) as e:
            e.index = i
            raise
    return state
