"""Training the learned player's networks: self-play data (numpy) and fitting (PyTorch, the ``train`` extra).

``python -m ohhell.train`` (or ``ohhell train``) reproduces the shipped weights; see docs/model-card.md.
"""
