"""Game-night figures per variant from the store's game summaries, for the history page.

Only games that are over and saw at least one action count: a game started and never played
(or ended at once) says nothing about how the family plays, and one still in progress has no
final score yet. A win is the variant's maximum score (the rules call that game "won").
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import median
from typing import Any

from companion.game.store import GameRecord, Store, clock_was_set
from companion.game.table import stored_log

Point = tuple[float | None, int, int]  # (finished at, None when the box's clock was not set; score; max score)


@dataclass(frozen=True)
class VariantFigures:
    """One variant's counted games, oldest first."""

    variant: Any            # as stored: a preset name or {"preset": NAME, OPTION: VALUE, ...}
    games: int
    best: int
    median: float
    wins: int
    max_score: int
    best_game: int          # the id of the latest game with the best score
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Figures:
    variants: tuple[VariantFigures, ...]  # the most played first
    counted: int            # finished games with at least one action
    never_played: int       # games without a single action: left out
    in_progress: int        # played games that are not over: left out


def counts(rec: GameRecord) -> bool:
    """Whether a game enters the figures: over, and played (at least one action)."""
    return rec.actions > 0 and rec.outcome != "in_progress"


def variant_key(variant: Any) -> str:
    """One key per variant however its options were written down."""
    return json.dumps(variant, sort_keys=True)


def figures(records: Iterable[GameRecord]) -> Figures:
    """The figures of ``records`` (in the store's order, oldest first), grouped by variant."""
    groups: dict[str, list[GameRecord]] = {}
    never_played = in_progress = 0
    for rec in records:
        if rec.actions == 0:
            never_played += 1
        elif not counts(rec):
            in_progress += 1
        else:
            groups.setdefault(variant_key(rec.variant), []).append(rec)
    out = []
    for recs in groups.values():
        scores = [r.score for r in recs]
        best = max(scores)
        out.append(VariantFigures(
            variant=recs[0].variant, games=len(recs), best=best, median=median(scores),
            wins=sum(r.score >= r.max_score for r in recs), max_score=max(r.max_score for r in recs),
            best_game=max(r.id for r in recs if r.score == best),
            points=tuple((r.updated if clock_was_set(r.updated) else None, r.score, r.max_score) for r in recs)))
    out.sort(key=lambda f: -f.games)  # stable: equally played variants keep the order they were first played
    return Figures(tuple(out), sum(f.games for f in out), never_played, in_progress)


def final_fireworks(store: Store, game_id: int) -> list[tuple[str, int]]:
    """A stored game's fireworks at its end: (suit, top value; 0 = none) in the variant's order."""
    state = stored_log(store, game_id).fold()
    return list(state.fireworks_map().items())


def variant_label(variant: Any, options: Mapping[str, tuple[str, list[tuple[str, str]]]]) -> str:
    """A variant as people read it: the preset, then each option that differs from it, in their words.

    ``options`` maps an option to its label and its (JSON value, label) choices, as the setup form
    offers them; an option the form does not offer is shown with its value as written.
    """
    if isinstance(variant, str):
        return variant
    parts = []
    for name, value in variant.items():
        if name == "preset":
            continue
        label, choices = options.get(name, (name, []))
        words = dict(choices).get(json.dumps(value), ", ".join(map(str, value)) if isinstance(value, list)
                                  else str(value))
        parts.append(f"{label}: {words}")
    preset = variant.get("preset", "base")
    return f"{preset} ({'; '.join(parts)})" if parts else preset
