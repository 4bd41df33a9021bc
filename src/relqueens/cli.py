"""The ``relqueens`` command: solve and cross-check N-queens from a shell.

Exit status: 0 on success (and when a reader such as ``head`` stops
reading), 1 when ``check`` finds a disagreement, a count stays incomplete or
memory runs out, 2 on bad input (one line on stderr, no traceback), 130 when
interrupted. Each command has a size limit (:data:`LIMITS`) and refuses
larger boards in one line; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from tqdm import tqdm

from ._version import __version__
from .check import check
from .count import CountError, count, plan
from .fd.labeling import ORDER, SELECT
from .gallery import LARGE, MAX_SQUARES, gallery_parts, write_atomically, write_svgs
from .queens import MODELS, iter_queens
from .render import board_text
from .squares import pins_of
from .stepper import MAX_N as STEP_MAX_N
from .stepper import MAX_STEPS, queens_stepper_html
from .treeview import MAX_N, search_trees_html

if TYPE_CHECKING:
    from concurrent.futures import Executor

LIMITS = {"solve": 1000, "render": 1000, "count": 50, "check": 14}
"""The largest board each command takes (see docs/queens.md, "Limits"); ``tree`` draws up to ``MAX_N``."""

PAIRWISE_MAX = 500
"""``solve --model pairwise`` states n(n - 1) constraints: 0.27 GB at n = 500, 1 GB at 1000."""

MAX_WORKERS = 256
"""``count --workers`` starts at most this many workers, and never more than one per sub-problem."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number in ``least..most`` (argparse names the argument)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(
                f"cannot be negative, got {value}"
                if least == 0
                else f"must be at least {least}, got {value}"
            )
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(
                f"must be at most {most}, got {value}: see the limits in docs/queens.md"
            )
        return value

    return parse


def _board_size(parser: argparse.ArgumentParser, command: str) -> None:
    """The board-size argument of ``command``, up to its limit."""
    most = LIMITS[command]
    parser.add_argument("n", metavar="N", type=_whole(0, most), help=f"board size, at most {most}")


_positive = _whole(1)


def _pin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pin",
        metavar="SQUARE",
        action="append",
        default=[],
        help="a queen placed in advance, as a chess square (a1 = row 0, column 0) or ROW:COL; repeatable",
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``relqueens`` command and its subcommands."""
    parser = _Parser(
        prog="relqueens", description="N-queens as relations, on kanren with finite domains."
    )
    parser.add_argument("--version", action="version", version=f"relqueens {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = sub.add_parser(
        "solve", help="find boards", description="Find solutions of the N-queens problem."
    )
    _board_size(solve, "solve")
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--all", action="store_true", help="every solution")
    how_many.add_argument("--count", action="store_true", help="only count the solutions")
    how_many.add_argument(
        "--limit", metavar="K", type=_positive, help="at most K solutions (default 1)"
    )
    _pin_option(solve)
    solve.add_argument(
        "--symmetry", action="store_true", help="one board per symmetry class (lex-leader)"
    )
    solve.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    solve.add_argument("--unicode", action="store_true", help="draw queens as ♕ (text format)")
    solve.add_argument("--coords", action="store_true", help="label files and ranks (text format)")
    solve.add_argument(
        "--model",
        choices=("auto", *MODELS),
        default="auto",
        help="how the diagonals are stated (auto: pairwise up to N=100, then compact)",
    )
    solve.add_argument(
        "--select",
        choices=("auto", *SELECT),
        default="auto",
        help="labeling: variable selection (auto: leftmost up to N=16, then ff)",
    )
    solve.add_argument(
        "--order",
        choices=("auto", *ORDER),
        default="auto",
        help="labeling: value order (auto: up to N=16, then mid)",
    )

    render = sub.add_parser(
        "render",
        help="draw every solution as a board",
        description="Write a self-contained HTML gallery of the solutions, and/or one SVG per board.",
    )
    _board_size(render, "render")
    render.add_argument("--html", metavar="FILE", help="write the gallery page here")
    render.add_argument(
        "--svg", metavar="DIR", help="write one SVG file per board into this folder"
    )
    _pin_option(render)
    render.add_argument("--symmetry", action="store_true", help="one board per symmetry class")
    render.add_argument("--limit", metavar="K", type=_positive, help="at most K boards")
    render.add_argument(
        "--force",
        action="store_true",
        help=f"draw more than {LARGE} boards (up to {MAX_SQUARES:,} squares in all)",
    )
    render.add_argument("--title", help="the page title")

    tree = sub.add_parser(
        "tree",
        help="draw the search trees",
        description=f"Draw relqueens' search tree beside plain backtracking's (N <= {MAX_N}).",
    )
    tree.add_argument("n", metavar="N", type=_whole(0), help=f"board size, at most {MAX_N}")
    tree.add_argument("--html", metavar="FILE", required=True, help="write the page here")
    _pin_option(tree)
    tree.add_argument(
        "--symmetry", action="store_true", help="break symmetries in relqueens' search"
    )

    step = sub.add_parser(
        "step",
        help="watch propagation, step by step, in a browser",
        description=f"Write a self-contained page that replays the search step by step (N <= {STEP_MAX_N}, "
        f"at most {MAX_STEPS:,} steps): the board, what propagation rules out and why, the dead ends.",
    )
    step.add_argument("n", metavar="N", type=_positive, help="board size")
    step.add_argument("--html", metavar="FILE", required=True, help="write the page here")
    _pin_option(step)
    step.add_argument("--symmetry", action="store_true", help="break symmetries (lex-leader)")
    step.add_argument(
        "--limit", metavar="K", type=_positive, help="replay only until the K-th solution"
    )
    step.add_argument("--title", help="the page title")

    cnt = sub.add_parser(
        "count",
        help="count all boards, in parallel and resumably",
        description="Count every solution by pinning the first K rows: one sub-problem per placement, "
        "run in process, on a process pool, or on a Dask cluster; resumable with a checkpoint.",
    )
    _board_size(cnt, "count")
    cnt.add_argument(
        "--split",
        metavar="K",
        type=_whole(0),
        help="rows to pin per sub-problem (default 2, 0 below n=10)",
    )
    cnt.add_argument(
        "--workers",
        metavar="W",
        type=_positive,
        help=f"a local process pool of W workers (at most {MAX_WORKERS}, one per sub-problem)",
    )
    where = cnt.add_mutually_exclusive_group()
    where.add_argument(
        "--dask", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://host:8786"
    )
    where.add_argument(
        "--dask-local", action="store_true", help="start a Dask LocalCluster (W workers, default 2)"
    )
    cnt.add_argument(
        "--mirror",
        action="store_true",
        help="count half the first row, twice (same total, half the work)",
    )
    cnt.add_argument(
        "--checkpoint", metavar="FILE", help="record finished sub-problems here; rerun to resume"
    )
    cnt.add_argument("--format", choices=("text", "json"), default="text", help="output format")

    chk = sub.add_parser(
        "check",
        help="cross-check with the reference solver",
        description="Compare the relational answers with the reference backtracker, as sets.",
    )
    _board_size(chk, "check")
    return parser


if TYPE_CHECKING:
    _Tqdm = tqdm[Any]  # generic in its stubs only: tqdm[Any] fails at run time
else:
    _Tqdm = tqdm


class _Bar(_Tqdm):
    """A tqdm bar without its monitor thread (worker processes are forked while it runs)."""

    monitor_interval = 0


def _progress(boards: Iterator[tuple[int, ...]], stream: TextIO) -> Iterator[tuple[int, ...]]:
    """Pass boards through, counting them on a terminal (a bar on ``stream``, cleared at the end)."""
    return iter(
        _Bar(
            boards,
            file=stream,
            disable=not stream.isatty(),
            desc="found",
            unit=" boards",
            leave=False,
        )
    )


def _solve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.model == "pairwise" and args.n > PAIRWISE_MAX:
        raise ValueError(
            f"--model pairwise takes N <= {PAIRWISE_MAX} (its constraints grow as N²); "
            "the compact model goes further"
        )
    pins = pins_of(args.pin, args.n)
    boards = iter_queens(
        args.n,
        pins=pins,
        symmetry=args.symmetry,
        model=args.model,
        select=args.select,
        order=args.order,
    )
    header = {"n": args.n, "pins": {str(r): c for r, c in pins.items()}, "symmetry": args.symmetry}
    if args.count:
        total = sum(1 for _ in _progress(boards, err))
        out.write(
            json.dumps({**header, "count": total}) + "\n" if args.format == "json" else f"{total}\n"
        )
        return 0
    limit = None if args.all else (args.limit or 1)
    if args.all:
        boards = _progress(boards, err)
    opening = (
        json.dumps(header)[:-1] + ', "solutions": ['
    )  # JSON is streamed, from the first board on
    shown, cut = 0, False
    for board in boards:
        if shown == limit:  # one more board exists: the list was cut
            cut = True
            break
        shown += 1
        if args.format == "json":
            out.write((", " if shown > 1 else opening) + json.dumps(list(board)))
        else:
            drawn = board_text(board, unicode=args.unicode, coords=args.coords)
            out.write(f"# {shown}: {list(board)}\n{drawn}\n\n")
    if args.format == "json":
        out.write(("" if shown else opening) + f'], "count": {shown}}}\n')
    else:
        out.write(
            f"{shown or 'no'} {_plural(shown, 'solution')}" + (" shown" if cut else "") + "\n"
        )
    return 0


def _plural(k: int, word: str) -> str:
    return word if k == 1 else f"{word}s"


def _render(args: argparse.Namespace, out: TextIO) -> int:
    if not (args.html or args.svg):
        raise ValueError("say where to draw: --html FILE and/or --svg DIR")
    most = MAX_SQUARES // max(args.n * args.n, 1)
    if args.limit and args.limit > most:
        raise ValueError(
            f"--limit {args.limit}: at most {most:,} boards of {args.n}x{args.n} fit in {MAX_SQUARES:,} squares"
        )
    pins = pins_of(args.pin, args.n)
    wanted = args.limit or (most if args.force else min(LARGE, most))
    found = list(islice(iter_queens(args.n, pins=pins, symmetry=args.symmetry), wanted + 1))
    cut = len(found) > wanted
    if cut and not args.limit:
        hint = f"insist with --force (up to {most:,})" if most > wanted else f"at most {most:,} fit"
        raise ValueError(
            f"n = {args.n} has more than {wanted:,} solutions: a page that large is not usable; "
            f"choose some with --limit K, or {hint}"
        )
    del found[wanted:]
    if args.html:
        write_atomically(
            args.html,
            gallery_parts(
                found, n=args.n, pins=pins, symmetry=args.symmetry, title=args.title, truncated=cut
            ),
        )
        out.write(f"wrote {args.html} ({len(found)} {_plural(len(found), 'board')})\n")
    if args.svg:
        paths = write_svgs(found, args.svg, n=args.n, pins=pins)
        out.write(f"wrote {len(paths)} SVG {_plural(len(paths), 'file')} into {args.svg}\n")
    return 0


def _tree(args: argparse.Namespace, out: TextIO) -> int:
    write_atomically(args.html, [search_trees_html(args.n, pins=args.pin, symmetry=args.symmetry)])
    out.write(f"wrote {args.html}\n")
    return 0


def _step(args: argparse.Namespace, out: TextIO) -> int:
    page = queens_stepper_html(
        args.n, pins=args.pin, symmetry=args.symmetry, limit=args.limit, title=args.title
    )
    write_atomically(args.html, [page])
    out.write(f"wrote {args.html}: open it in a browser, then step with the arrow keys\n")
    return 0


class _CountBar:
    """count's progress as a bar on a terminal: done/total, rate, ETA; shown at the first call."""

    bar: _Bar | None

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.bar = stream, None

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if self.bar is None:
            self.bar = _Bar(
                total=total, initial=done, file=self.stream, desc="count", unit=" sub-problems"
            )
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _dask_executor(
    args: argparse.Namespace, workers: int | None
) -> tuple[Executor, list[Callable[[], object]]]:
    """The Dask executor the arguments ask for, and what to call to close it."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("Dask is not installed: pip install 'relqueens[dask]'") from None
    if args.dask:
        try:
            client = Client(args.dask, timeout="5s")
        except OSError as e:
            raise ValueError(f"cannot reach the Dask scheduler at {args.dask}: {e}") from None
        return client.get_executor(), [client.close]  # close, never shut down, a shared cluster
    workers = min(workers or 2, len(plan(args.n, args.split, args.mirror)) or 1)
    # Ctrl-C is for this process, which closes the cluster: the workers, started meanwhile, inherit
    # the ignoring (a Ctrl-C while the cluster starts is lost), and keep their warnings to themselves
    ctrl_c = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,  # a worker cut off by Ctrl-C logs its lost heartbeat at ERROR
        )
        client = Client(cluster)
    finally:
        signal.signal(signal.SIGINT, ctrl_c)
    return client.get_executor(), [client.close, cluster.close]


def _count(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.split is not None and args.split > args.n:
        raise ValueError(f"--split {args.split} pins more rows than the board has (N = {args.n})")
    cpus = os.cpu_count() or 1
    if args.workers and args.workers > cpus:
        _say(
            err,
            f"relqueens count: warning: {args.workers} workers on {cpus} CPUs only take turns; "
            f"at most {MAX_WORKERS} are started, and one per sub-problem",
        )
    workers = args.workers and min(args.workers, MAX_WORKERS)
    executor, to_close = (
        _dask_executor(args, workers) if args.dask or args.dask_local else (None, [])
    )
    bar = _CountBar(err) if err.isatty() else None
    try:
        result = count(
            args.n,
            split_rows=args.split,
            executor=executor,
            workers=None if executor else workers,
            mirror=args.mirror,
            checkpoint=args.checkpoint,
            progress=bar,
        )
    finally:
        if bar:
            bar.close()
        for close in to_close:
            close()
    if args.format == "json":
        out.write(
            json.dumps(
                {
                    "n": result.n,
                    "count": result.total,
                    "subproblems": result.subproblems,
                    "computed": result.computed,
                    "resumed": result.resumed,
                    "seconds": round(result.seconds, 3),
                }
            )
            + "\n"
        )
    else:
        out.write(
            f"{result.total}\n" if not err.isatty() else f"n = {result.n}: {result.total} boards\n"
        )
        err.write(
            f"{result.subproblems} {_plural(result.subproblems, 'sub-problem')}: {result.computed} counted now, "
            f"{result.resumed} from the checkpoint, in {result.seconds:.2f} s\n"
        )
    return 0


def _run_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.command == "solve":
        return _solve(args, out, err)
    if args.command == "render":
        return _render(args, out)
    if args.command == "tree":
        return _tree(args, out)
    if args.command == "step":
        return _step(args, out)
    if args.command == "count":
        return _count(args, out, err)
    report = check(args.n)
    out.write(f"{report}\n")
    return 0 if report.ok else 1


def _interrupt(signum: int, frame: object) -> NoReturn:
    raise KeyboardInterrupt


def _say(err: TextIO, line: str) -> None:
    """One line on stderr, if anyone still reads it (a closed pipe does not change the exit status)."""
    try:
        err.write(line + "\n")
        err.flush()
    except OSError:
        _silence(err)


def _silence(stream: TextIO) -> None:
    """Send what is left for a closed pipe to /dev/null, so that exiting does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a file (a test's StringIO)
        pass


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    >>> main(["solve", "6", "--count"])
    4
    0
    """
    out, err = out or sys.stdout, err or sys.stderr or io.StringIO()
    if out is None:
        _say(err, "relqueens: error: the standard output is closed; redirect it, e.g. >/dev/null")
        return 2
    args = build_parser().parse_args(argv)
    try:
        status = _run_command(args, out, err)
        out.flush()
        return status
    except BrokenPipeError:  # the reader stopped (| head): that is fine
        _silence(out)
        return 0
    except CountError as e:
        _say(err, f"relqueens count: error: {e}")
        return 1
    except (ValueError, TypeError, OSError) as e:
        _say(err, f"relqueens {args.command}: error: {e}")
        return 2
    except KeyboardInterrupt:
        where = getattr(args, "checkpoint", None)
        note = (
            f"; finished sub-problems are in {where}: run the same command to resume"
            if where
            else ""
        )
        _say(err, f"\nrelqueens: interrupted{note}")
        return 130
    except MemoryError:
        status = 1  # said below, out of the handler: what filled the memory goes with the traceback
    _say(err, f"relqueens {args.command}: error: out of memory; try a smaller N (or --limit)")
    return status


def entry_point() -> None:
    """The console script (SIGTERM stops it like Ctrl-C; a second stop while stopping is quiet too)."""
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        status = main()
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)


if __name__ == "__main__":
    entry_point()
