"""Compute a game's opening book (pyapp.exact.openingbook): decide each class of its deepest level, write the file.

    python scripts/opening_book.py french d2 d6 --pegs 31 --seconds 20 --records R.jsonl [--part K --parts N]
    python scripts/opening_book.py french d2 d6 --pegs 31 --records R.jsonl --write sets/
    python scripts/opening_book.py french d2 d6 --pegs 31 --records R.jsonl --measure 4 [--out FILE]
    python scripts/opening_book.py diamond41 d2 any --pegs 33 --book sets/ --under-won --records R.jsonl [...]

The first form decides the classes ``K, K+N, K+2N, ...`` of the level of ``--pegs`` pegs (run N of them side by
side, one per core), appending one JSON record a class to ``--records`` and skipping the classes already there,
so a stopped run resumes (``--records`` may be given more than once: each part's file).  The second assembles the
book from the records (every level above follows exactly) and writes its checked file into the folder (``sets/``
holds the committed ones the build ships).  The third plays that many seeded games from the start (a jump the book
proves good with probability 0.8, else any legal jump) and runs never-lose (Hint's 10 s budget in CPU seconds) at
each position the book's levels hold, with the book installed and without it: CPU seconds per position, jump
verdicts left unknown, and disagreements where both decided (0 expected).  The game's shipped endgame table is
installed where the build's cache holds it (the solver's beams finish at it, as in the page).  ``--under-won`` (with ``--book``, the book
one level up) makes the level hold only the children of that book's winnable classes: a child of a lost class is lost,
so the level costs a fraction of the whole one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyapp.core.catalogue import get_board  # noqa: E402
from pyapp.core.problem import make_problem  # noqa: E402
from pyapp.exact.openingbook import decide, frontier  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("start")
    ap.add_argument("goal")
    ap.add_argument("--pegs", type=int, required=True, help="the deepest level decided")
    ap.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per class")
    ap.add_argument("--records", required=True, action="append")
    ap.add_argument("--part", type=int, default=0)
    ap.add_argument("--parts", type=int, default=1)
    ap.add_argument("--retry", action="store_true", help="decide again the classes left unknown (a longer --seconds)")
    ap.add_argument("--engine", choices=("solver", "ilp"), default="solver",
                    help="ilp: the integer programme alone decides (with --retry: the classes the solver left unknown)")
    ap.add_argument("--write", help="assemble the book and write its file into this folder")
    ap.add_argument("--measure", type=int, help="games to play with and without the book")
    ap.add_argument("--out", help="with --write or --measure: merge the figures into this JSON file (per game)")
    ap.add_argument("--book", help="a folder holding this game's book one level up (sets/): its lines, adapted, "
                                   "decide most classes before the solver; with --write its verdicts join the records")
    ap.add_argument("--under-won", action="store_true", help="with --book one level up: the level holds only the "
                                                             "children of that book's winnable classes (a child of a "
                                                             "lost class is lost)")
    ap.add_argument("--adapt", action="store_true", help="without --book: adapt the lines of the classes of the same "
                                                         "level solved so far before the solver (with --retry too)")
    args = ap.parse_args()
    problem = make_problem(get_board(args.board), start=args.start, goal=args.goal)
    above = _book(args.book, problem) if args.book else None
    if args.under_won and above is None:
        ap.error("--under-won needs --book with this game's book one level up")
    cd, levels = frontier(problem, args.pegs, under=above if args.under_won else None)
    _install_table(problem)
    records = [r for path in args.records for r in _read(path)]
    if above is not None and args.write:
        records += book_records(above)
    if args.measure or args.write:
        from pyapp.exact.openingbook import assemble

        book = assemble(problem, cd, levels, records)
    if args.measure:
        figures = measure(problem, book, args.measure)
        print(json.dumps({k: v for k, v in figures.items() if k != "positions"}))
        _merge(args.out, problem, {"measure": {k: v for k, v in figures.items() if k != "positions"}})
        return 0
    if args.write:
        from pyapp.exact.openingbook_files import encode_book, file_name

        data = encode_book(book)
        path = os.path.join(args.write, file_name(problem))
        with open(path, "wb") as f:
            f.write(data)
        decided = [r for r in records if r["status"] != "unknown"]
        made = {"file": os.path.basename(path), "bytes": len(data), "deepest": book.deepest,
                "levels": {p: [sum(1 for k in keys if k in book.won), sum(1 for k in keys if k in book.lost), len(keys)]
                           for p, keys in sorted(levels.items(), reverse=True)},
                "asked": len({r["key"] for r in records}), "decided": len({r["key"] for r in decided}),
                "cpu": round(sum(r["cpu"] for r in records), 1),
                "by_method": {m: sum(1 for r in decided if r["method"] == m)
                              for m in sorted({r["method"] for r in decided})},
                "command": f"python scripts/opening_book.py {args.board} {args.start} {args.goal} --pegs {args.pegs} "
                           f"--seconds {args.seconds:g} --records FILE [--part K --parts N]"
                           f"{' --book sets/' if args.book else ''}{' --under-won' if args.under_won else ''}"
                           f"{' --adapt' if args.adapt else ''}"
                           + ("; the classes left unknown then again with --retry --engine ilp"
                              if any(r["method"].startswith("integer programming") for r in decided) else "")
                           + " (then --write sets/)", "under_won": args.under_won}
        print(json.dumps(made))
        _merge(args.out, problem, {"book": made})
        return 0
    done = {r["key"] for r in records if r["status"] != "unknown" or not args.retry}
    todo = [k for i, k in enumerate(levels[args.pegs]) if i % args.parts == args.part and k not in done]
    print(f"{len(levels[args.pegs])} classes at {args.pegs} pegs, {len(todo)} left in part {args.part}", flush=True)
    t0 = time.time()
    adapt = Adapter(problem, above, cd) if above is not None or args.adapt else None
    with open(args.records[-1], "a", encoding="utf-8") as out:
        if adapt is not None:  # every class a neighbour's line settles first, at once; the solver takes the rest
            for r in records:
                adapt.learn(r)
            rest = []
            for key in todo:
                record = adapt(key)
                if record is None:
                    rest.append(key)
                else:
                    out.write(json.dumps(record) + "\n")
            out.flush()
            print(f"{len(todo) - len(rest)} adapted from a neighbour's line in {time.time() - t0:.1f} s", flush=True)
            todo = rest
        for n, key in enumerate(todo, 1):
            record = (adapt(key) if adapt is not None else None) or decide(problem, cd, key, args.seconds, args.engine)
            if adapt is not None:
                adapt.learn(record)
            out.write(json.dumps(record) + "\n")
            out.flush()
            if n % 25 == 0:
                print(f"{n}/{len(todo)} in {time.time() - t0:.0f} s", flush=True)
    return 0


def _book(folder: str, problem):
    """The game's book in ``folder`` (decoded and checked), or None when there is none."""
    from pyapp.exact.openingbook_files import decode_book, file_name

    path = os.path.join(folder, file_name(problem))
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return decode_book(f.read(), problem)


def _install_table(problem) -> None:
    """The game's shipped endgame table installed, where the build's cache holds it: the solver's beams then finish at
    it (:class:`pyapp.exact.endgame.TableFinisher`), as in the page."""
    from pyapp.bench.game_rows import shipped_table
    from pyapp.exact import endgame
    from pyapp.exact.store import stem

    table = shipped_table(problem, stem(problem))
    if table is not None:
        endgame.install(table)


def book_records(book) -> list[dict]:
    """The verdicts of ``book`` as records, every level's (so a deeper book keeps them where a class below it is left
    unknown, or, under the winnable classes only, has no children listed; :func:`pyapp.exact.openingbook.assemble`
    checks each against the level below)."""
    from pyapp.core.notation import format_jump

    board, cd = book.problem.board, book.codec
    out: list[dict] = []
    for key, line in book.won.items():
        out.append({"key": key, "pegs": cd.layout(key).bit_count(), "status": "solved", "method": "opening book",
                    "cpu": 0.0, "line": [format_jump(board, j) for j in line]})
    for key, why in book.lost.items():
        out.append({"key": key, "pegs": cd.layout(key).bit_count(), "status": "impossible", "method": "opening book",
                    "cpu": 0.0, "why": why})
    return out


class Adapter:
    """Records made without the solver: a class's line adapted (:func:`pyapp.analysis.repair.repaired`, finished by
    the goal's endgame table from the build's cache when it is there) from the known lines of its neighbours: its
    parents in the book's level above (when there is a book: ``book`` may be None), and the classes of its own level
    solved so far (:meth:`learn`)."""

    def __init__(self, problem, book, cd) -> None:
        from pyapp.bench.game_rows import shipped_table
        from pyapp.exact.store import stem

        self.problem, self.book, self.cd = problem, book, cd
        self.table = shipped_table(problem, stem(problem))
        self.lines: dict[int, tuple] = {}
        self.pegs = 0
        """The level whose solved classes are kept (the last learned)."""

    def learn(self, record: dict) -> None:
        """Keep a solved record's line for the classes tried after it."""
        from pyapp.core.notation import parse_moves

        if record["status"] == "solved":
            self.lines[record["key"]] = tuple(parse_moves(self.problem.board, record["line"]))
            self.pegs = record["pegs"]

    def line_of(self, pos: int):
        from pyapp.core.moves import apply_jump, legal_jumps
        from pyapp.exact.openingbook import moved

        if self.book is not None and pos.bit_count() >= self.book.deepest:
            return self.book.line(pos)
        key = self.cd.canon(pos)
        line = self.lines.get(key)
        if line is not None:
            return moved(self.problem, self.cd, key, pos, line)
        if self.book is None and self.lines and pos.bit_count() > self.pegs:  # a parent: through a solved child
            for jump in legal_jumps(self.problem.board, pos):
                child = apply_jump(pos, jump)
                if child.bit_count() == self.pegs and (rest := self.line_of(child)) is not None:
                    return (jump, *rest)
        return None

    def __call__(self, key: int) -> dict | None:
        from pyapp.analysis.proven import REPAIRED
        from pyapp.analysis.repair import repaired
        from pyapp.core.notation import format_jump

        t = time.process_time()
        board, pos = self.problem.board, self.cd.layout(key)
        line = repaired(board, self.problem.goal, pos, self.line_of, self.table)
        if line is None:
            return None
        record = {"key": key, "pegs": pos.bit_count(), "status": "solved", "method": REPAIRED,
                  "cpu": round(time.process_time() - t, 4), "line": [format_jump(board, j) for j in line]}
        self.learn(record)
        return record


def opening_positions(problem, book, games: int) -> list[int]:
    """The positions of ``games`` seeded games from the start above the book's deepest level (so its jumps' positions
    are in the book's levels): a jump the book proves good with probability 0.8, else any legal jump."""
    import random

    from pyapp.core.moves import apply_jump, legal_jumps

    rng = random.Random(31)
    where: list[int] = []
    for _ in range(games):
        pos = problem.start
        while pos.bit_count() > book.deepest and (jumps := legal_jumps(problem.board, pos)):
            where.append(pos)
            good = [j for j in jumps if (v := book.answer(apply_jump(pos, j))) is not None and v.won]
            pos = apply_jump(pos, rng.choice(good if good and rng.random() < 0.8 else jumps))
    return where


def measure(problem, book, games: int) -> dict:
    """Never-lose at every position of ``games`` seeded games that the book's levels hold (its jumps' positions
    included), with the book installed and without it (each on empty tables of proved positions)."""
    import statistics

    from pyapp.analysis import proven
    from pyapp.analysis.neverlose import never_lose_steps
    from pyapp.core.budget import CPU_CLOCK, Budget, drive
    from pyapp.core.problem import Problem
    from pyapp.exact import openingbook

    rows = []
    where = opening_positions(problem, book, games)
    for pos in where:
        row: dict = {"pegs": pos.bit_count()}
        for mode in ("without", "with"):
            openingbook.clear()
            proven._TABLES.clear()
            if mode == "with":
                openingbook.install(book)
            t = time.process_time()
            answer = drive(never_lose_steps(Problem(problem.board, pos, problem.goal),
                                            budget=Budget(10, clock=CPU_CLOCK)))
            row[mode] = {"cpu": round(time.process_time() - t, 4), "status": answer.status,
                         "unknown": len(answer.jumps.unknown), "bad": sorted(answer.jumps.bad),
                         "good": sorted(answer.jumps.good), "answered": answer.answered}
        a, b = row["without"], row["with"]
        row["disagree"] = len(set(a["bad"]) & set(b["good"])) + len(set(a["good"]) & set(b["bad"]))
        rows.append(row)
    openingbook.clear()

    def summary(mode: str) -> dict:
        cpu = sorted(r[mode]["cpu"] for r in rows)
        return {"median": round(statistics.median(cpu), 3), "p95": round(cpu[int(0.95 * (len(cpu) - 1))], 3),
                "max": cpu[-1], "unknown": sum(r[mode]["unknown"] for r in rows)}

    return {"game": f"{problem.board.id} {problem.goal.text(problem.board)}", "games": games, "deepest": book.deepest,
            "positions": rows, "count": len(rows), "without": summary("without"), "with": summary("with"),
            "from_book": sum(1 for r in rows if r["with"]["answered"]),
            "disagreements": sum(r["disagree"] for r in rows)}


def game_name(problem) -> str:
    """``BOARD START -> GOAL``, the game's key in ``benchmarks/books.json``."""
    from pyapp.exact.store import start_hole

    return f"{problem.board.id} {start_hole(problem)} -> {problem.goal.text(problem.board)}"


def _merge(path: str | None, problem, figures: dict, listed: bool = False) -> None:
    """Merge ``figures`` into the game's entry of the JSON file at ``path`` (``benchmarks/books.json``), each stamped
    with the Python version and the date; ``listed``: each is added to a list under its key instead, one per
    ``label`` (a label measured again replaces its entry, moved last; a single earlier entry becomes the first)."""
    if not path:
        return
    import platform

    data = {"games": {}}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    entry = data["games"].setdefault(game_name(problem), {})
    for key, value in figures.items():
        stamped = {**value, "python": platform.python_version(),
                   "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        if listed:
            earlier = entry.get(key) or []
            earlier = earlier if isinstance(earlier, list) else [earlier]
            stamped = [*(e for e in earlier if e.get("label") != value.get("label")), stamped]
        entry[key] = stamped
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def _read(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


if __name__ == "__main__":
    sys.exit(main())
