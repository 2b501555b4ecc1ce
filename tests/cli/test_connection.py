"""gpu-sizing's key and server: a stored key stays private; a GET retries until the server is up."""

from __future__ import annotations

import stat
import subprocess
import threading

from tests.cli.conftest import GPU_SIZING, environment
from tests.faults.servers import ApiServer, free_port, wait_until


def test_login_stores_the_key_for_its_owner_only_and_never_prints_it(gpu_sizing, live_api):
    env = environment(gpu_sizing.home)
    ran = gpu_sizing("login", "--url", live_api.url, env=env, stdin=live_api.key + "\n")
    assert ran.code == 0, ran.err
    config = gpu_sizing.home / ".config" / "gpu-sizing" / "config.toml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o700
    assert live_api.key in config.read_text()
    shown = gpu_sizing("config", env=env)
    for output in (ran.out + ran.err, shown.out + shown.err):
        assert live_api.key not in output and live_api.key[:16] in output
    # The stored server and key serve every later command.
    assert gpu_sizing("catalog", "gpus", env=env).code == 0

    assert gpu_sizing("logout", env=env).code == 0
    assert live_api.key not in config.read_text()
    refused = gpu_sizing("catalog", "gpus", env=env)
    assert refused.code == 1 and "no API key" in refused.err


def test_login_refuses_a_key_the_server_does_not_know(gpu_sizing, live_api):
    env = environment(gpu_sizing.home)
    wrong = "sk_live_00000000" + "a" * 32
    ran = gpu_sizing("login", "--url", live_api.url, env=env, stdin=wrong + "\n")
    assert ran.code == 1 and "(401 invalid_key)" in ran.err and wrong not in ran.err
    assert not (gpu_sizing.home / ".config" / "gpu-sizing" / "config.toml").exists()


def test_a_get_retries_after_a_connection_failure_and_says_so(live_api, tmp_path):
    port = free_port()
    env = environment(tmp_path, GPU_SIZING_URL=f"http://127.0.0.1:{port}",
                      GPU_SIZING_KEY=live_api.key)
    cli = subprocess.Popen([str(GPU_SIZING), "--retries", "8", "catalog", "gpus"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    notes: list[str] = []
    reader = threading.Thread(target=lambda: notes.extend(cli.stderr), daemon=True)
    reader.start()
    server = None
    try:
        wait_until(lambda: any("retrying" in n for n in notes), 30, "the first retry note")
        # Nothing listened when the command started; the same service now comes up there.
        server = ApiServer(tmp_path, live_api.env, workers=1, threads=2, port=port).start()
        out, _ = cli.communicate(timeout=120)
    finally:
        if cli.poll() is None:
            cli.kill()
        if server:
            server.stop()
    reader.join(timeout=10)
    assert cli.returncode == 0, "".join(notes)
    assert "h100-sxm" in out
    assert any(n.startswith("note: GET /v1/catalog/gpus: cannot connect") for n in notes), notes


def test_an_unreachable_server_exits_3_after_its_retries(tmp_path):
    env = environment(tmp_path, GPU_SIZING_URL=f"http://127.0.0.1:{free_port()}",
                      GPU_SIZING_KEY="sk_live_00000000" + "a" * 32)
    done = subprocess.run([str(GPU_SIZING), "--retries", "1", "catalog", "gpus"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 3
    assert "retrying" in done.stderr and "cannot reach http://127.0.0.1:" in done.stderr
    assert "after 2 attempts" in done.stderr and "Traceback" not in done.stderr
