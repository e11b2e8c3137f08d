"""Graph2Seq reference harness (arXiv:1802.04948): ``problems``, ``graphs`` and ``heuristics`` at
the bottom; ``io`` (graph files), ``reference`` (the reference solver and its certificates), ``nn``,
``rl``, ``algorithm2`` and ``evaluate`` on them; the commands ``cli`` (``g2s``), ``train`` and
``certificates`` on top.  Importing g2s does not import torch (``nn``, ``rl``, ``algorithm2`` and
``evaluate`` need it).
"""

__version__ = "0.1.0"
