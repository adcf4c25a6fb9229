"""``boards``: the catalogue with each board's default problem."""

from __future__ import annotations

from ...core.catalogue import ENTRIES, get_board


def register(sub) -> None:
    p = sub.add_parser("boards", help="list the catalogue of boards")
    p.set_defaults(run=run, text=text)


def run(args) -> dict:
    boards = []
    for e in ENTRIES:
        b = get_board(e.id)
        boards.append({"id": e.id, "title": e.title, "lattice": e.lattice, "holes": len(b),
                       "symmetries": len(b.symmetries), "start": e.start, "goal": e.goal, "source": e.source})
    return {"boards": boards}


def text(result: dict) -> str:
    return "\n".join(f"{b['id']:<11} {b['holes']:>3} holes  {b['lattice']:<8} default: {b['start']} -> {b['goal']}  "
                     f"({b['title']})" for b in result["boards"])
