"""One script per figure or theorem of the paper (``python reproduce/NAME.py``), their parts
(``*_parts/``), the claims ledger, and the engine they share (``harness/``)."""
