"""The ``relqueens`` command: solve and cross-check N-queens from a shell.

Exit status: 0 on success, 1 when ``check`` finds a disagreement, 2 on bad
input (one line on stderr, no traceback), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TextIO

from .check import check
from .count import CountError, count
from .fd.labeling import ORDER, SELECT
from .gallery import LARGE, gallery_html, write_svgs
from .queens import MODELS, iter_queens
from .render import board_text
from .squares import pins_of
from .stepper import MAX_N as STEP_MAX_N
from .stepper import MAX_STEPS, queens_stepper_html
from .treeview import MAX_N, search_trees_html


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(least: int):
    """An argparse type: a whole number, at least ``least`` (argparse names the argument)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(
                f"cannot be negative, got {value}" if least == 0 else f"must be at least {least}, got {value}"
            )
        return value

    return parse


_size, _positive = _whole(0), _whole(1)


def _pin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pin", metavar="SQUARE", action="append", default=[],
        help="a queen placed in advance, as a chess square (a1 = row 0, column 0) or ROW:COL; repeatable",
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``relqueens`` command and its subcommands."""
    parser = _Parser(prog="relqueens", description="N-queens as relations, on kanren with finite domains.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = sub.add_parser("solve", help="find boards", description="Find solutions of the N-queens problem.")
    solve.add_argument("n", metavar="N", type=_size, help="board size")
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--all", action="store_true", help="every solution")
    how_many.add_argument("--count", action="store_true", help="only count the solutions")
    how_many.add_argument("--limit", metavar="K", type=_positive, help="at most K solutions (default 1)")
    _pin_option(solve)
    solve.add_argument("--symmetry", action="store_true", help="one board per symmetry class (lex-leader)")
    solve.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    solve.add_argument("--unicode", action="store_true", help="draw queens as ♕ (text format)")
    solve.add_argument("--coords", action="store_true", help="label files and ranks (text format)")
    solve.add_argument("--model", choices=("auto", *MODELS), default="auto",
                       help="how the diagonals are stated (auto: pairwise up to N=100, then compact)")
    solve.add_argument("--select", choices=("auto", *SELECT), default="auto",
                       help="labeling: variable selection (auto: leftmost up to N=16, then ff)")
    solve.add_argument("--order", choices=("auto", *ORDER), default="auto",
                       help="labeling: value order (auto: up to N=16, then mid)")

    render = sub.add_parser(
        "render", help="draw every solution as a board",
        description="Write a self-contained HTML gallery of the solutions, and/or one SVG per board.",
    )
    render.add_argument("n", metavar="N", type=_size, help="board size")
    render.add_argument("--html", metavar="FILE", help="write the gallery page here")
    render.add_argument("--svg", metavar="DIR", help="write one SVG file per board into this folder")
    _pin_option(render)
    render.add_argument("--symmetry", action="store_true", help="one board per symmetry class")
    render.add_argument("--limit", metavar="K", type=_positive, help="at most K boards")
    render.add_argument("--force", action="store_true", help=f"draw more than {LARGE} boards")
    render.add_argument("--title", help="the page title")

    tree = sub.add_parser(
        "tree", help="draw the search trees",
        description=f"Draw relqueens' search tree beside plain backtracking's (N <= {MAX_N}).",
    )
    tree.add_argument("n", metavar="N", type=_size, help="board size")
    tree.add_argument("--html", metavar="FILE", required=True, help="write the page here")
    _pin_option(tree)
    tree.add_argument("--symmetry", action="store_true", help="break symmetries in relqueens' search")

    step = sub.add_parser(
        "step", help="watch propagation, step by step, in a browser",
        description=f"Write a self-contained page that replays the search step by step (N <= {STEP_MAX_N}, "
        f"at most {MAX_STEPS:,} steps): the board, what propagation rules out and why, the dead ends.",
    )
    step.add_argument("n", metavar="N", type=_positive, help="board size")
    step.add_argument("--html", metavar="FILE", required=True, help="write the page here")
    _pin_option(step)
    step.add_argument("--symmetry", action="store_true", help="break symmetries (lex-leader)")
    step.add_argument("--limit", metavar="K", type=_positive, help="replay only until the K-th solution")
    step.add_argument("--title", help="the page title")

    cnt = sub.add_parser(
        "count", help="count all boards, in parallel and resumably",
        description="Count every solution by pinning the first K rows: one sub-problem per placement, "
        "run in process, on a process pool, or on a Dask cluster; resumable with a checkpoint.",
    )
    cnt.add_argument("n", metavar="N", type=_size, help="board size")
    cnt.add_argument("--split", metavar="K", type=_size, help="rows to pin per sub-problem (default 2, 0 below n=10)")
    cnt.add_argument("--workers", metavar="W", type=_positive, help="a local process pool of W workers")
    where = cnt.add_mutually_exclusive_group()
    where.add_argument("--dask", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--dask-local", action="store_true", help="start a Dask LocalCluster (W workers, default 2)")
    cnt.add_argument("--mirror", action="store_true", help="count half the first row, twice (same total, half the work)")
    cnt.add_argument("--checkpoint", metavar="FILE", help="record finished sub-problems here; rerun to resume")
    cnt.add_argument("--format", choices=("text", "json"), default="text", help="output format")

    chk = sub.add_parser(
        "check", help="cross-check with the reference solver",
        description="Compare the relational answers with the reference backtracker, as sets.",
    )
    chk.add_argument("n", metavar="N", type=_size, help="board size")
    return parser


def _progress(boards: Iterator, stream: TextIO) -> Iterator:
    """Pass boards through, telling a terminal how many have been found so far."""
    if not stream.isatty():
        yield from boards
        return
    shown, count = time.monotonic(), 0
    for count, board in enumerate(boards, 1):
        now = time.monotonic()
        if now - shown > 0.25:
            stream.write(f"\rfound {count} ...")
            stream.flush()
            shown = now
        yield board
    stream.write("\r" + " " * 30 + "\r")
    stream.flush()


def _solve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pins = pins_of(args.pin, args.n)
    boards = iter_queens(
        args.n, pins=pins, symmetry=args.symmetry, model=args.model, select=args.select, order=args.order
    )
    if args.all or args.count:
        boards = _progress(boards, err)
    limit = None if args.all or args.count else (args.limit or 1)
    header = {"n": args.n, "pins": {str(r): c for r, c in pins.items()}, "symmetry": args.symmetry}
    if args.count:
        total = sum(1 for _ in boards)
        out.write(json.dumps({**header, "count": total}) + "\n" if args.format == "json" else f"{total}\n")
        return 0
    found = []
    for board in boards:
        found.append(board)
        if args.format == "text":
            drawn = board_text(board, unicode=args.unicode, coords=args.coords)
            out.write(f"# {len(found)}: {list(board)}\n{drawn}\n\n")
        if limit is not None and len(found) >= limit:
            break
    if args.format == "json":
        out.write(json.dumps({**header, "count": len(found), "solutions": [list(b) for b in found]}) + "\n")
    else:
        what = "solution" if len(found) == 1 else "solutions"
        out.write(f"{len(found) or 'no'} {what}" + ("" if args.all else " shown") + "\n")
    return 0


def _render(args: argparse.Namespace, out: TextIO) -> int:
    if not (args.html or args.svg):
        raise ValueError("say where to draw: --html FILE and/or --svg DIR")
    pins = pins_of(args.pin, args.n)
    boards = iter_queens(args.n, pins=pins, symmetry=args.symmetry)
    if args.limit:
        found = list(islice(boards, args.limit))
    else:
        found = list(islice(boards, None if args.force else LARGE + 1))
        if len(found) > LARGE:
            raise ValueError(
                f"n = {args.n} has more than {LARGE} solutions: a page that large is not usable; "
                "choose some with --limit K, or insist with --force"
            )
    truncated = bool(args.limit) and len(found) == args.limit
    if args.html:
        page = gallery_html(found, n=args.n, pins=pins, symmetry=args.symmetry, title=args.title, truncated=truncated)
        Path(args.html).write_text(page, encoding="utf-8")
        out.write(f"wrote {args.html} ({len(found)} boards)\n")
    if args.svg:
        paths = write_svgs(found, args.svg, n=args.n, pins=pins)
        out.write(f"wrote {len(paths)} SVG files into {args.svg}\n")
    return 0


def _tree(args: argparse.Namespace, out: TextIO) -> int:
    page = search_trees_html(args.n, pins=args.pin, symmetry=args.symmetry)
    Path(args.html).write_text(page, encoding="utf-8")
    out.write(f"wrote {args.html}\n")
    return 0


def _step(args: argparse.Namespace, out: TextIO) -> int:
    page = queens_stepper_html(args.n, pins=args.pin, symmetry=args.symmetry, limit=args.limit, title=args.title)
    Path(args.html).write_text(page, encoding="utf-8")
    out.write(f"wrote {args.html}: open it in a browser, then step with the arrow keys\n")
    return 0


def _count_bar(stream: TextIO) -> Callable[[int, int, float], None] | None:
    """A progress bar across sub-problems for a terminal (done / total, rate, ETA)."""
    if not stream.isatty():
        return None

    def show(done: int, total: int, seconds: float) -> None:
        rate = done / seconds if seconds > 0 else 0.0
        eta = (total - done) / rate if rate else 0.0
        filled = int(30 * done / max(total, 1))
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} sub-problems, "
                     f"{rate:.1f}/s, ETA {eta:.0f} s ")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


def _executor(args: argparse.Namespace):
    """The executor the arguments ask for (``None``: in process), and what to call to close it."""
    if args.dask or args.dask_local:
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
        cluster = LocalCluster(n_workers=args.workers or 2, threads_per_worker=1, dashboard_address=":0")
        client = Client(cluster)
        return client.get_executor(), [client.close, cluster.close]
    if args.workers:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=args.workers)
        return pool, [lambda: pool.shutdown(wait=False, cancel_futures=True)]
    return None, []


def _count(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.split is not None and args.split > args.n:
        raise ValueError(f"--split {args.split} pins more rows than the board has (N = {args.n})")
    executor, to_close = _executor(args)
    try:
        result = count(
            args.n, split_rows=args.split, executor=executor, mirror=args.mirror,
            checkpoint=args.checkpoint, progress=_count_bar(err),
        )
    finally:
        for close in to_close:
            close()
    if args.format == "json":
        out.write(json.dumps({
            "n": result.n, "count": result.total, "subproblems": result.subproblems,
            "computed": result.computed, "resumed": result.resumed, "seconds": round(result.seconds, 3),
        }) + "\n")
    else:
        out.write(
            f"{result.total}\n" if not err.isatty() else f"n = {result.n}: {result.total} boards\n"
        )
        err.write(
            f"{result.subproblems} sub-problems: {result.computed} counted now, "
            f"{result.resumed} from the checkpoint, in {result.seconds:.2f} s\n"
        )
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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
    except (ValueError, TypeError, OSError) as e:
        err.write(f"relqueens {args.command}: error: {e}\n")
        return 2
    except CountError as e:
        err.write(f"relqueens count: error: {e}\n")
        return 1
    except KeyboardInterrupt:
        where = getattr(args, "checkpoint", None)
        note = f"; finished sub-problems are in {where}: run the same command to resume" if where else ""
        err.write(f"\nrelqueens: interrupted{note}\n")
        return 130
    except BrokenPipeError:
        return 0


def entry_point() -> None:
    """The console script (SIGTERM stops it like Ctrl-C)."""
    signal.signal(signal.SIGTERM, _interrupt)
    sys.exit(main())
