"""Make the committed winnable set files of the games too slow to compute in a build: ``python scripts/make_sets.py``.

Each game of :data:`pyapp.web.sets.SHIPPED` marked ``artefact`` has its set file committed in ``sets/``
(named by game and key version, :func:`pyapp.web.sets.file_name`); ``build.py`` reads it from there and
checks it (format, key version, game, SHA-256, key order) instead of computing it.  Run this after a
change to what the keys mean (the build then says which file is missing): it computes the named games
(default: every artefact game whose file is missing or refused), writes their files and deletes the files
of older key versions.  ``--check`` only decodes every committed file and exits 1 if one is refused.
A game shipped from some level up (``Game.floor``; and down from ``Game.upto``, triangle 7) is cut from its
whole set; ``--whole FOLDER`` takes that whole set from a file there (named as shipped, e.g. by
``scripts/measure_sets.py --save FOLDER``) instead of computing it.  A game shipped over its goal's endgame table
(``Game.over_table``: French d2 -> d6), whose sweeps need several processes and hours, is made by
``scripts/make_overtable.py`` instead; ``--check`` checks its file too.

    nice python scripts/make_sets.py [english-d1-d1 ...] [--force] [--check] [--whole FOLDER]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyapp.core.errors import PegError  # noqa: E402
from pyapp.web.setfiles import checked, compute_set  # noqa: E402
from pyapp.web.sets import SHIPPED, file_name  # noqa: E402

FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sets")


def refused(game) -> str | None:
    """Why the committed file of ``game`` cannot be shipped, or None when it decodes."""
    path = os.path.join(FOLDER, file_name(game))
    try:
        with open(path, "rb") as f:
            checked(game, {"winnable": f.read()})
    except (OSError, PegError) as err:
        return str(err)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="board-start-goal, e.g. english-d1-d1 (default: every artefact game)")
    parser.add_argument("--force", action="store_true", help="compute even when the committed file decodes")
    parser.add_argument("--check", action="store_true", help="only check the committed files")
    parser.add_argument("--whole", help="a folder holding the whole sets to cut partial ones from (else computed)")
    args = parser.parse_args()
    games = [g for g in SHIPPED if g.artefact and (not args.games or g.stem in args.games)]
    unknown = set(args.games) - {g.stem for g in games}
    if unknown:
        print(f"not an artefact game: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    bad = 0
    for game in games:
        why = refused(game)
        if args.check:
            print(f"{game.stem}: {why or 'ok'}")
            bad += why is not None
            continue
        if why is None and not args.force:
            print(f"{game.stem}: {file_name(game)} decodes, kept")
            continue
        if game.over_table and not args.whole:
            print(f"{game.stem}: {why or 'forced'}; make it with python scripts/make_overtable.py {game.stem} "
                  "--checkpoint DIR (hours on 2 cores), or cut it from its whole set with --whole FOLDER")
            bad += 1
            continue
        t0 = time.process_time()
        whole = None
        if args.whole and game.floor is not None:
            with open(os.path.join(args.whole, file_name(game)), "rb") as f:
                whole = f.read()
        data = compute_set(game, whole)
        path = os.path.join(FOLDER, file_name(game))
        os.makedirs(FOLDER, exist_ok=True)
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        for name in os.listdir(FOLDER):  # the files of older key versions of this game
            if name.startswith(game.stem + "-") and name != os.path.basename(path):
                os.remove(os.path.join(FOLDER, name))
        print(f"{game.stem}: wrote {file_name(game)}, {len(data):,} bytes, {time.process_time() - t0:.0f} CPU s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
