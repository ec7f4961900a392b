"""``python -m ohhell.train``: the same as ``ohhell train``."""

from ohhell.train.command import main

if __name__ == "__main__":
    main()
