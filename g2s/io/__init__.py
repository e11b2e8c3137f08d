"""Graph files: ``files`` reads and writes every format (the dispatcher), one module per format
below it, and ``input_graph`` at the bottom (the graph every reader returns, its limits, errors)."""
