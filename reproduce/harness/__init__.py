"""The experiment engine under every script of ``reproduce/``: the script ``contract`` (options,
cache, JSON), ``engine`` (serial, pool, Dask), ``grid`` and its units (``unit_check``,
``unit_import``), ``rederive`` (the drift check), ``verdicts`` (the one decision rule),
``settings``, ``plots``."""
