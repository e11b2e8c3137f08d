"""The networks (torch): ``model`` (G2S-RNN: ``graph2seq``, ``seq2vec``, ``qnet``), the
``baselines``, ``batch``; the trained weights: ``checkpoints`` (no torch), ``checkpoint_file``."""
