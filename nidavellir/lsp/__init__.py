"""`nidavellir lsp`: a language server for rules YAML (pygls), over stdio.

While a designer edits rules files it publishes the located diagnostics `nidavellir check`
gives (of the unsaved editor text), shows a card's rule text on hover and completes names inside
effect DSL strings. Nothing heavy is imported until `serve()` runs, so the CLI starts fast.
"""
from __future__ import annotations


def serve() -> int:
    """Run the language server on stdin/stdout until the client says `exit`; the exit code."""
    from .stdio import run

    return run()


__all__ = ["serve"]
