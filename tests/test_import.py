"""``import relqueens`` loads what queries need, not the machinery of parallel counting or pages."""

import subprocess
import sys


def test_importing_relqueens_leaves_process_pools_and_page_writing_unloaded():
    heavy = ("multiprocessing", "concurrent.futures.process", "secrets")
    probe = f"import relqueens, sys; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # and they are there when used
    probe = "from relqueens.count import WorkerPool\nwith WorkerPool(1) as p: print(p.workers)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
