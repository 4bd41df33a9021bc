"""relqueens' benchmark suite (run it with ``python -m benchmarks``; see ``__main__``)."""
