"""The launcher sets torchrun's variables in every rank's environment before its script starts
(issue 37): scripts that read RANK, WORLD_SIZE and LOCAL_RANK at their top run unchanged."""
from jobs import PYTHON, launch_script, run


def test_ranks_find_torchrun_variables_before_importing_anything(tmp_path):
    code, out = launch_script(tmp_path, """
        import os
        rank, world, local = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ["LOCAL_RANK"])
        local_world = os.environ["LOCAL_WORLD_SIZE"]
        master = os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"]
        import sys
        import meshflow as mf
        assert (rank, world, local) == (mf.env.get_rank(), mf.env.get_world_size(), mf.env.get_local_rank())
        print(f"rank {rank} world {world} local {local} of {local_world} master {master} args {sys.argv[1:]} "
              f"main {__name__} file {os.path.basename(__file__)}", flush=True)
    """, RANK="7", MASTER_PORT="29777", MASTER_ADDR=None)
    assert code == 0, out
    for rank in (0, 1):
        assert (f"rank {rank} world 2 local {rank} of 2 master ('127.0.0.1', '29777') args ['an-arg'] "
                "main __main__ file job.py") in out, out


def test_ranks_find_torchrun_s_group_role_and_elastic_variables(tmp_path):
    code, out = launch_script(tmp_path, """
        import os
        names = ("GROUP_RANK", "GROUP_WORLD_SIZE", "ROLE_RANK", "ROLE_WORLD_SIZE", "ROLE_NAME",
                 "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_MAX_RESTARTS")
        values = [os.environ[n] for n in names]
        run_id = os.environ["TORCHELASTIC_RUN_ID"]
        import meshflow as mf
        import meshflow.distributed as dist
        everyone = [None, None]
        dist.init_process_group("gloo")
        dist.all_gather_object(everyone, run_id)
        print(f"rank {mf.env.get_rank()} {values} elastic {dist.is_torchelastic_launched()} "
              f"one run id {len(set(everyone)) == 1 and len(run_id) >= 8}", flush=True)
    """)
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} ['0', '1', '{rank}', '2', 'default', '0', '0'] elastic True one run id True" in out, out


def test_torchrun_s_one_node_options_and_a_module(tmp_path):
    # torchrun --nnodes 1 --node_rank 0 --master_port P --rdzv_backend c10d -m pkg.train args
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(
        "import os, sys\n"
        "print(f\"rank {os.environ['RANK']} port {os.environ['MASTER_PORT']} args {sys.argv[1:]} main {__name__}\", "
        "flush=True)\n")
    code, out = run([PYTHON, "-m", "meshflow.launch", "--nnodes", "1", "--node_rank", "0", "--nproc_per_node", "2",
                     "--master_port", "29611", "--rdzv_backend", "c10d", "-m", "pkg.train", "--lr", "0.1"],
                    timeout=20, cwd=tmp_path)
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} port 29611 args ['--lr', '0.1'] main __main__" in out, out


def test_ranks_print_whole_lines_even_unbuffered(tmp_path):
    # Under PYTHONUNBUFFERED a print wrote its text and its newline apart, and mpirun merged
    # another rank's line in between ("rank 0 read 1.5rank 1 read 2.5"): each rank's streams
    # now write a line at once, still flushed at every newline.
    code, out = launch_script(tmp_path, """
        import sys
        import meshflow as mf
        streams = [(s.line_buffering, s.write_through) for s in (sys.stdout, sys.stderr)]
        print(f"rank {mf.env.get_rank()} streams {streams}", flush=True)
    """, PYTHONUNBUFFERED="1")
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} streams [(True, False), (True, False)]" in out, out
