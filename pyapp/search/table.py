"""A transposition table of positions bounded by an entry cap.

Positions are recorded together with their images under the symmetries in use, so that
a lookup is a single hash probe (``pos in table``) with no canonicalisation in the hot
loop: the table is keyed by the symmetry class, the images being that class's members.
When the cap is reached nothing more is stored: the search stays correct (an entry only
saves re-exploring a subtree) and simply revisits positions it could not record;
``full`` says this happened.  Memory is thus bounded by ``cap`` Python ints in a set
(about 60-70 bytes each on CPython).
"""

from __future__ import annotations


class BoundedTable:
    """A set of positions with an entry cap; see the module docstring for the policy at the cap."""

    __slots__ = ("cap", "full", "images", "keys")

    def __init__(self, cap: int, images) -> None:
        if cap < 0:
            raise ValueError("table cap must be >= 0")
        self.cap = cap
        self.keys: set[int] = set()
        self.images = images
        self.full = False

    def add(self, pos: int) -> None:
        keys = self.keys
        imgs = self.images(pos)
        if len(keys) + len(imgs) > self.cap:
            self.full = True
            return
        keys.update(imgs)

    def add_images(self, imgs: list[int]) -> None:
        """Record a position given as the list of its images (the position itself among them)."""
        keys = self.keys
        if len(keys) + len(imgs) > self.cap:
            self.full = True
            return
        keys.update(imgs)

    def __contains__(self, pos: int) -> bool:
        return pos in self.keys

    def __len__(self) -> int:
        return len(self.keys)
