"""Every test sees plain output: colour is decided by the command (issue 9: "Diagnostics coloured
when writing to a terminal (respect NO_COLOR), plain otherwise"), and tests that want colour ask."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_colour_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "NO_COLOR", "CLICOLOR_FORCE"):
        monkeypatch.delenv(name, raising=False)
