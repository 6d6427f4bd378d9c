"""A small dependency-free SVG line chart of game scores over time, readable on a phone."""
from __future__ import annotations

import time
from collections.abc import Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 40, 16, 16, 44


def score_chart(points: Sequence[tuple[float | None, int, int]], title: str, empty: str) -> Markup:
    """``points`` are (finished at or None if unknown, score, max score) in order; one dot per game.

    The scale starts at 0, or lower for a negative score (black powder takes points away)."""
    if not points:
        return Markup('<p class="empty">{}</p>').format(empty)
    top = max(25, max(p[2] for p in points))
    bottom = min(0, min(p[1] for p in points) // 5 * 5)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(points)

    def x(i: int) -> float:
        return LEFT + (plot_w / 2 if n == 1 else plot_w * i / (n - 1))

    def y(v: float) -> float:
        return TOP + plot_h * (top - v) / (top - bottom)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>']
    for v in range(bottom, top + 1, 5):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                     f'<text class="axis" x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    line = " ".join(f"{x(i):.1f},{y(p[1]):.1f}" for i, p in enumerate(points))
    parts.append(f'<polyline class="line" points="{line}"/>')
    step = max(1, n // 6)
    for i, (at, score, max_score) in enumerate(points):
        day = "?" if at is None else time.strftime("%Y-%m-%d", time.localtime(at))  # None: date unknown
        parts.append(f'<circle class="dot" cx="{x(i):.1f}" cy="{y(score):.1f}" r="5">'
                     f'<title>{escape(day)}: {score}/{max_score}</title></circle>')
        if i % step == 0 or i == n - 1:
            parts.append(f'<text class="axis" x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" '
                         f'text-anchor="middle">{escape(day[5:])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
