"""The engine under the scripts: ``contract`` (options, cache, JSON), ``engine`` (serial, pool,
Dask), ``grid`` and its units, ``rederive`` (drift), ``verdicts`` (the rule), ``settings``."""
