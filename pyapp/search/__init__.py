"""The search engine's parts: compiled tables, the bounded table, depth-first and beam searches.

:mod:`pyapp.solver` puts them together into a portfolio (cheap proofs, then the searches).
"""
