// Generated from pyapp/core/limits.py by `python -m pyapp.core.limits > static/play/limits.mjs`; do not edit.
// tests/test_limits.py checks that this file equals what pyapp generates.
export const MAX_ROWS = 26;
export const MAX_COLUMNS = 26;
export const MAX_HOLES = 400;
export const MAX_ROW_CHARS = 78;
export const MAX_TEXT_CHARS = 2054;
export const MAX_SPEC_CHARS = 2063;
export const MAX_GOAL_CHARS = 2061;
export const MAX_HOLE_CHARS = 10;
export const MAX_MOVES = 400;
export const MAX_MOVES_CHARS = 3200;
export const MAX_LINK_CHARS = 9402;
export const MAX_CNF_JUMP_VARIABLES = 200000;
export const MAX_SECONDS = 604800;
