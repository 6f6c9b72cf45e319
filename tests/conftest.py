"""Every test sees plain output: colour is decided by the command (issue 9: "Diagnostics coloured
when writing to a terminal (respect NO_COLOR), plain otherwise"), and tests that want colour ask."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_colour_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "NO_COLOR", "CLICOLOR_FORCE"):
        monkeypatch.delenv(name, raising=False)


# -- tests that watch the engine from inside --------------------------------------------------------
# A test marked `sources` replaces or wraps engine methods (monkeypatch, a spy). Compiled code
# (runtime/native.py) calls its own methods directly, past any replacement, so where the compiled
# engine runs, such a test runs in a child pytest on the sources (NIDAVELLIR_PURE=1), and passes or
# fails with it. tests/test_native.py holds the two to the same games.
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sources: the test watches engine methods; it runs on the sources")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    import os
    import subprocess
    import sys

    from nidavellir.runtime import native

    if pyfuncitem.get_closest_marker("sources") is None or not native.active():
        return None
    env = {**os.environ, "NIDAVELLIR_PURE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", pyfuncitem.nodeid],
                          capture_output=True, text=True, env=env, cwd=pyfuncitem.config.rootpath, timeout=900)
    if done.returncode != 0:
        pytest.fail(f"on the sources (NIDAVELLIR_PURE=1):\n{done.stdout[-6000:]}{done.stderr[-2000:]}", pytrace=False)
    return True
