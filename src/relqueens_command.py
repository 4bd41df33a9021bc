"""The ``relqueens`` console script, outside the package so that it runs before the package imports.

Importing relqueens (and kanren under it) takes a moment; a Ctrl-C or a
SIGTERM in that moment ends the command quietly with status 130, as it does
later, instead of an import traceback. A signal the command was started to
ignore (a background job's Ctrl-C) stays ignored.
"""

import os
import signal


def _stop(signum: int, frame: object) -> None:
    # nothing to clean up while importing; an exception raised here could land in one of the
    # import system's callbacks, which would print it as ignored and go on
    os._exit(130)


def main() -> None:
    """Stop quietly on a signal while importing, then run the command (:func:`relqueens.cli.entry_point`)."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s, handler in before.items():
        if handler is not signal.SIG_IGN:
            signal.signal(s, _stop)
    try:
        from relqueens.cli import entry_point

        for s, handler in before.items():  # from here on, the signals are the command's
            signal.signal(s, handler)
        entry_point()
    except (
        KeyboardInterrupt
    ):  # a Ctrl-C between giving the signals back and the command's own handling
        raise SystemExit(130) from None
