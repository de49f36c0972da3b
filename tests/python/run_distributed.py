"""Runs the multi-rank Python suite on every rank of an mpirun job.

Rank 0 prints pytest's report; the other ranks stay quiet unless a test fails there, in
which case conftest.py prints the failure and ends the whole job (so no rank is left
waiting in a collective that the failed rank skipped).
"""
import os
import sys

import pytest

import meshflow as mf

here = os.path.dirname(os.path.abspath(__file__))
rank = mf.env.get_rank()
args = ["-p", "no:cacheprovider", "-q", "--color=no", os.path.join(here, "distributed")] + sys.argv[1:]
if rank != 0:
    # Keep pytest's terminal plugin (it owns -q and friends) but send its report nowhere.
    sys.stdout = open(os.devnull, "w")
code = pytest.main(args)
sys.stdout.flush()
sys.exit(int(code))
