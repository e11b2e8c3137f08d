"""Graph files: ``files`` reads and writes any format (the dispatcher), one module per format
below it (``text``, ``graph6``, ``graphml``, ``matrix_market``, ``metis``, ``compression``),
and ``input_graph`` at the bottom (the graph every reader returns, the limits, the errors)."""
