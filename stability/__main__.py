"""``python -m stability``: the same command line as the ``stability`` console script."""

from ._entry import main

if __name__ == "__main__":  # pragma: no branch
    main()
