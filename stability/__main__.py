"""``python -m stability``: the same command line as the ``stability`` console script."""

from .cli import app

if __name__ == "__main__":  # pragma: no branch
    app(prog_name="stability")
