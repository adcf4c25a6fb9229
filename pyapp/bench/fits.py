"""Growth fits for the scaling study: least squares on logarithms, in pure Python (no numpy).

Why: the ParallelProject study summarised its solver by two curves, time = 2133.73 x^1.083 in elements
searched (R^2 0.81: linear in nodes) and time = 2000 e^{0.6 x} in solution length (exponential in
moves); fitting ours and the baseline the same way puts them side by side.

What: :func:`power_fit` (``y = a x^b``: a line through ``(ln x, ln y)``), :func:`exp_fit` (``y = a e^{r x}``,
growth base ``e^r`` per unit of x: a line through ``(x, ln y)``), each with R^2 of that line (on the
logarithms, as such fits are usually quoted), and :func:`bend`: the peg count where a two-piece line
through the log medians fits best, i.e. where the growth changes pace (for our solver, where pruning
by pagoda functions and position class takes over).  Only solved runs with positive time and nodes
enter a fit; runs that spent their budget are censored, and the report counts them separately.

>>> f = power_fit([1, 2, 4, 8], [3, 6, 12, 24]); round(f["a"], 6), round(f["b"], 6), round(f["r2"], 6)
(3.0, 1.0, 1.0)
>>> g = exp_fit([0, 1, 2], [2, 2 * 2.718281828459045, 2 * 2.718281828459045 ** 2]); round(g["base"], 4)
2.7183
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

MIN_POINTS = 3
"""Fewer points than this give no fit (None)."""
BEND_GAIN = 0.5
"""A bend is reported when two lines leave at most this share of one line's squared error..."""
BEND_RATIO = 2.0
"""...and their slopes differ by at least this factor (or in sign)."""


def line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float, float]:
    """Least-squares line ``y = c + m x``: ``(m, c, r2, sse)`` (r2 is 1.0 when y does not vary)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    m = sxy / sxx if sxx else 0.0
    c = my - m * mx
    sse = sum((y - c - m * x) ** 2 for x, y in zip(xs, ys))
    sst = sum((y - my) ** 2 for y in ys)
    return m, c, (1.0 - sse / sst) if sst else 1.0, sse


def _positive(xs: Sequence[float], ys: Sequence[float], need_x: bool) -> tuple[list[float], list[float]]:
    pairs = [(x, y) for x, y in zip(xs, ys) if y > 0 and (x > 0 or not need_x)]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def power_fit(xs: Sequence[float], ys: Sequence[float]) -> dict | None:
    """``y = a x^b`` through the points with x, y > 0: ``{"a", "b", "r2", "n"}``."""
    px, py = _positive(xs, ys, True)
    if len(px) < MIN_POINTS or len(set(px)) < 2:
        return None
    b, c, r2, _ = line([math.log(x) for x in px], [math.log(y) for y in py])
    return {"a": math.exp(c), "b": b, "r2": r2, "n": len(px)}


def exp_fit(xs: Sequence[float], ys: Sequence[float]) -> dict | None:
    """``y = a e^{r x}`` through the points with y > 0: ``{"a", "rate", "base", "r2", "n"}`` (base = e^r)."""
    px, py = _positive(xs, ys, False)
    if len(px) < MIN_POINTS or len(set(px)) < 2:
        return None
    r, c, r2, _ = line(px, [math.log(y) for y in py])
    return {"a": math.exp(c), "rate": r, "base": math.exp(r), "r2": r2, "n": len(px)}


def bend(xs: Sequence[float], ys: Sequence[float]) -> dict | None:
    """Where the curve ``ln y`` against ``x`` bends: the break of the best two-piece line (each piece at
    least :data:`MIN_POINTS` points).  ``{"at", "base_before", "base_after", "gain", "bends"}``; ``gain`` is
    the two pieces' squared error over one line's, ``bends`` whether it passes :data:`BEND_GAIN` and
    :data:`BEND_RATIO`."""
    px, py = _positive(xs, ys, False)
    if len(px) < 2 * MIN_POINTS:
        return None
    pts = sorted(zip(px, (math.log(y) for y in py)))
    _, _, _, whole = line([p[0] for p in pts], [p[1] for p in pts])
    best = None
    for k in range(MIN_POINTS, len(pts) - MIN_POINTS + 1):
        left, right = pts[:k], pts[k - 1:]  # the break point belongs to both pieces
        m1, _, _, e1 = line([p[0] for p in left], [p[1] for p in left])
        m2, _, _, e2 = line([p[0] for p in right], [p[1] for p in right])
        if best is None or e1 + e2 < best[0]:
            best = (e1 + e2, pts[k - 1][0], m1, m2)
    assert best is not None
    sse, at, m1, m2 = best
    gain = sse / whole if whole else 1.0
    differ = (m1 * m2 <= 0) or max(abs(m1), abs(m2)) >= BEND_RATIO * min(abs(m1), abs(m2))
    return {"at": at, "base_before": math.exp(m1), "base_after": math.exp(m2), "gain": gain,
            "bends": gain <= BEND_GAIN and differ}


def medians_by(runs: Sequence[dict], key: str) -> tuple[list[float], list[float]]:
    """The median CPU seconds of solved runs per value of ``key`` (e.g. pegs), sorted by it."""
    groups: dict[float, list[float]] = {}
    for r in runs:
        if r["status"] == "solved" and r[key] is not None:
            groups.setdefault(r[key], []).append(r["seconds"])
    xs = sorted(groups)
    return xs, [statistics.median(groups[x]) for x in xs]


def solver_fits(runs: Sequence[dict]) -> dict:
    """The fits of one solver's runs on one board (or all boards)."""
    solved = [r for r in runs if r["status"] == "solved" and r["seconds"] > 0]
    secs = [r["seconds"] for r in solved]
    pegs_x, pegs_y = medians_by(runs, "pegs")
    return {
        "runs": len(runs),
        "solved": sum(r["status"] == "solved" for r in runs),
        "impossible": sum(r["status"] == "impossible" for r in runs),
        "unknown": sum(r["status"] == "unknown" for r in runs),
        "time_vs_nodes": power_fit([r["nodes"] for r in solved], secs),
        "time_vs_length": exp_fit([r["length"] for r in solved], secs),
        "time_vs_pegs": exp_fit([r["pegs"] for r in solved], secs),
        "bend_vs_pegs": bend(pegs_x, pegs_y),
        "largest_solved": max((r["pegs"] for r in solved), default=None),
        "smallest_unknown": min((r["pegs"] for r in runs if r["status"] == "unknown"), default=None),
    }


def study_fits(runs: Sequence[dict], boards: Sequence[str]) -> dict:
    """``{board: {solver: fits}}`` for every board of the study, and ``"all"`` for every board together."""
    out: dict = {"all": {s: solver_fits([r for r in runs if r["solver"] == s]) for s in ("ours", "baseline")}}
    for board in boards:
        out[board] = {}
        for solver in ("ours", "baseline"):
            out[board][solver] = solver_fits([r for r in runs if r["board"] == board and r["solver"] == solver])
    return out
