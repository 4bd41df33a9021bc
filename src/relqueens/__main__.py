"""``python -m relqueens``: the ``relqueens`` command."""

from .cli import entry_point

if __name__ == "__main__":
    entry_point()
