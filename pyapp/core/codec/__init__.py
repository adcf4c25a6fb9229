"""The position codec: one definition of a position's key, compiled two ways for speed.

The *dense key* of a position has one bit per hole in reading order (bit ``i`` is hole
``board.bits[i]``), so every board of up to :data:`MAX_HOLES` holes has keys that fit an
``array('Q')`` slot; the *canonical key* is the least dense key among the position's images
under a symmetry group.  Every part of the engine that stores positions (the solver's level
search, the exact sweeps, never-lose tables) uses these keys, so a key computed by one is valid
in the other (``tests/test_properties.py`` checks the three implementations agree).

Why three modules for one definition:

* :mod:`.keyset` (:class:`KeyCodec`, :class:`KeySet`): per-byte lookup tables that map a layout
  byte to its dense images under *every* symmetry at once, packed in lanes; the packed images
  are linear over XOR, so the solver's searches update a position's images per jump instead of
  recomputing them.  Also the sorted ``array('Q')`` key sets those searches keep.
* :mod:`.compiled` (:class:`Codec`): the level sweeps' inner loop runs once per edge of the game
  graph (tens of millions on English); it is generated as Python source specialised to the
  board, with the canonical key inlined as chunked table lookups (about 3x faster than a call).
* :mod:`.canonical`: the plain form for small, memoised analyses: the least *layout* int among
  the images under a subgroup (:meth:`Board.transform`; another representative of the same class,
  cheaper where no key is stored), orbit sizes, and per-board jump tables.

May import: :mod:`pyapp.core` only.
"""

from .keyset import KEY_BYTES, MAX_HOLES

__all__ = ["KEY_BYTES", "MAX_HOLES"]
