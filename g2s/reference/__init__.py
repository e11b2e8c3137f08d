"""The reference every ratio divides by: ``solver`` (exact where the family allows, else the
best known solution of ``best_known`` and a bound from the 0/1 ``programs`` run by
``formulations``; ``exact``: the special cases) and ``certificates`` (its stored results)."""
