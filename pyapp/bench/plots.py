"""The benchmark's figures, drawn from its JSON as SVG files (matplotlib: bench-only and optional).

Why: people would rather look than read; growth curves and distributions say in one glance what a table
of numbers says in a page.  Every figure is drawn from the committed JSON by the same command that writes
BENCHMARKS.md, so a figure can never disagree with the tables.

What: from a scaling study (:mod:`.scaling`), time against pegs (one panel per board, log scale, ours and
the baseline), time against nodes (log-log, with the power fits), and the share of runs solved, proved
impossible or unknown against pegs; from the other result files, start-up time by phase and never-lose
latency (median and 95th percentile) where those rows exist, and from ``bench --parallel``'s rows the speedup
against workers (measured, and the scaling model's projection).  Each series is an SVG group whose id names it
(``ours-english``, ``baseline-german``...), which the tests look for.

matplotlib is imported here only, lazily: the engine and the web page never import it, and without it
:func:`pyplot` raises :class:`PlotsUnavailable` with the line to install it.  The SVG is made
reproducible (no date, a fixed hash salt), so regenerating unchanged data changes no file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

COLOURS = {"ours": "#1f77b4", "baseline": "#d62728"}
STATUS_COLOURS = {"solved": "#2ca02c", "impossible": "#9467bd", "unknown": "#bbbbbb"}


class PlotsUnavailable(RuntimeError):
    """matplotlib is not installed (the figures are skipped; everything else still works)."""


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, set up for reproducible SVG."""
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailable("matplotlib is not installed, so no figures were drawn: "
                               "pip install -r requirements-dev.txt (it pins matplotlib)") from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "peg-solitaire-lab", "svg.fonttype": "none", "font.size": 9})
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    fig.clf()
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def _gids(bars: Any, gid: str) -> None:
    """Name the bars of one series ``gid-0``, ``gid-1``... (SVG ids must be unique)."""
    for i, patch in enumerate(bars.patches):
        patch.set_gid(f"{gid}-{i}")


def _panels(plt: Any, n: int, rows: int = 1) -> tuple[Any, list[Any]]:
    cols = (n + rows - 1) // rows
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.9 * rows), squeeze=False)
    return fig, [ax for row in axes for ax in row]


def time_vs_pegs(data: dict, path: Path) -> Path:
    plt = pyplot()
    boards = data["study"]["boards"]
    budget = data["study"]["budget_cpu_seconds"]
    fig, axes = _panels(plt, len(boards))
    for ax, board in zip(axes, boards):
        for solver in ("ours", "baseline"):
            runs = [r for r in data["runs"] if r["board"] == board and r["solver"] == solver]
            done = [r for r in runs if r["status"] != "unknown"]
            cut = [r for r in runs if r["status"] == "unknown"]
            pts = ax.scatter([r["pegs"] for r in done], [max(r["seconds"], 1e-6) for r in done], s=10,
                             color=COLOURS[solver], label=solver, marker="o" if solver == "ours" else "s", alpha=0.7)
            pts.set_gid(f"{solver}-{board}")
            if cut:
                ax.scatter([r["pegs"] for r in cut], [r["seconds"] for r in cut], s=18, color=COLOURS[solver],
                           marker="x").set_gid(f"{solver}-{board}-unknown")
        ax.axhline(budget, color="#888888", lw=0.8, ls=":")
        ax.set_yscale("log")
        ax.set_title(board)
        ax.set_xlabel("pegs")
    axes[0].set_ylabel("CPU seconds (x: budget spent)")
    axes[0].legend(loc="upper left", fontsize=7)
    return _save(fig, path)


def time_vs_nodes(data: dict, path: Path) -> Path:
    plt = pyplot()
    fig, (ax,) = _panels(plt, 1)
    fig.set_size_inches(5.5, 4)
    for solver in ("ours", "baseline"):
        runs = [r for r in data["runs"] if r["solver"] == solver and r["status"] == "solved" and r["nodes"] > 0
                and r["seconds"] > 0]
        ax.scatter([r["nodes"] for r in runs], [r["seconds"] for r in runs], s=8, alpha=0.5,
                   color=COLOURS[solver], label=solver).set_gid(f"{solver}-nodes")
        fit = data["fits"].get("all", {}).get(solver, {}).get("time_vs_nodes")
        if fit and runs:
            lo, hi = min(r["nodes"] for r in runs), max(r["nodes"] for r in runs)
            xs = [lo * (hi / lo) ** (i / 20) for i in range(21)]
            ax.plot(xs, [fit["a"] * x ** fit["b"] for x in xs], color=COLOURS[solver], lw=1,
                    label=f"{solver}: {fit['a']:.3g} x^{fit['b']:.3f}, R² {fit['r2']:.2f}")[0].set_gid(f"{solver}-fit")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes (positions searched)")
    ax.set_ylabel("CPU seconds")
    ax.legend(fontsize=7)
    return _save(fig, path)


def outcomes(data: dict, path: Path) -> Path:
    plt = pyplot()
    boards = data["study"]["boards"]
    fig, axes = _panels(plt, 2 * len(boards), rows=2)
    for i, solver in enumerate(("ours", "baseline")):
        for j, board in enumerate(boards):
            ax = axes[i * len(boards) + j]
            runs = [r for r in data["runs"] if r["board"] == board and r["solver"] == solver]
            pegs = sorted({r["pegs"] for r in runs})
            shares = {s: [sum(r["status"] == s for r in runs if r["pegs"] == p) /
                          max(1, sum(r["pegs"] == p for r in runs)) for p in pegs] for s in STATUS_COLOURS}
            stack = ax.stackplot(pegs, *shares.values(), colors=list(STATUS_COLOURS.values()),
                                 labels=list(STATUS_COLOURS))
            for poly, status in zip(stack, STATUS_COLOURS):
                poly.set_gid(f"{solver}-{board}-{status}")
            ax.set_ylim(0, 1)
            ax.set_title(f"{board}: {solver}", fontsize=8)
            if i == 1:
                ax.set_xlabel("pegs")
    axes[0].set_ylabel(f"share at {data['study']['budget_cpu_seconds']:g} CPU s")
    axes[0].legend(loc="lower left", fontsize=6)
    return _save(fig, path)


def startup_phases(rows: Sequence[dict], columns: Sequence[str], path: Path) -> Path:
    plt = pyplot()
    fig, (ax,) = _panels(plt, 1)
    fig.set_size_inches(6.5, 3.2)
    phases = [r for r in rows if all(isinstance(r.get(c), (int, float)) for c in columns)]
    height = 0.8 / len(columns)
    for k, column in enumerate(columns):
        ys = [i + k * height for i in range(len(phases))]
        _gids(ax.barh(ys, [r[column] for r in phases], height=height, label=column), f"startup-{column}")
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(phases))], [r["phase"] for r in phases], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("ms (Chromium, median of 5): stage durations; the last rows since navigation")
    ax.legend(fontsize=7)
    return _save(fig, path)


def latency(rows: Sequence[dict], path: Path) -> Path:
    plt = pyplot()
    fig, (ax,) = _panels(plt, 1)
    fig.set_size_inches(6, 3)
    labels = []
    for i, row in enumerate(rows):
        for k, (runtime, colour) in enumerate((("cpython", "#1f77b4"), ("chromium", "#ff7f0e"))):
            fig_ = row.get(runtime) or {}
            if "median_ms" in fig_:
                _gids(ax.bar(i * 3 + k, fig_["p95_ms"], color=colour, alpha=0.35), f"p95-{row['id']}-{runtime}")
                _gids(ax.bar(i * 3 + k, fig_["median_ms"], color=colour, label=runtime if i == 0 else None),
                      f"median-{row['id']}-{runtime}")
        labels.append((i * 3 + 0.5, row["short"]))
    ax.set_xticks([x for x, _ in labels], [t for _, t in labels], fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("ms per verdict: median (solid), p95 (pale)")
    ax.legend(fontsize=7)
    return _save(fig, path)


def speedup(rows: Sequence[dict], path: Path) -> Path:
    """Speedup against workers: measured (markers, solid) and the model's 8, 64, 512 (dashed), per job."""
    plt = pyplot()
    fig, (ax,) = _panels(plt, 1)
    fig.set_size_inches(6, 4)
    top = 2.0
    for row in rows:
        measured = sorted((int(w), s) for w, s in row["speedup"].items())
        xs, ys = [w for w, _ in measured], [s for _, s in measured]
        (line,) = ax.plot(xs, ys, marker="o", label=row["title"], gid=f"measured-{row['name']}")
        curve = sorted((int(p), v) for p, v in row["model"].get("curve", {}).items())
        ax.plot([p for p, _ in curve], [v for _, v in curve], linestyle="--", color=line.get_color(),
                gid=f"model-{row['name']}")
        top = max(top, *ys, *(v for _, v in curve))
    ax.plot([1, 512], [1, 512], color="#bbbbbb", linewidth=0.8, gid="ideal", label="ideal (P workers, P times faster)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_ylim(0.01, top * 1.5)
    ax.set_xlabel("workers (1-2 measured on this machine, solid; the scaling model, dashed)")
    ax.set_ylabel("speedup (wall, vs 1 worker)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    return _save(fig, path)


def scaling_figures(data: dict, out: Path, prefix: str = "scaling") -> list[Path]:
    """The three figures of a scaling study, written into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    return [time_vs_pegs(data, out / f"{prefix}-time-vs-pegs.svg"),
            time_vs_nodes(data, out / f"{prefix}-time-vs-nodes.svg"),
            outcomes(data, out / f"{prefix}-outcomes.svg")]
