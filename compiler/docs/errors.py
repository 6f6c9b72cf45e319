"""The docs back end's one error: something the user can fix (language, format, folder, printer)."""
from __future__ import annotations

from nidavellir.errors import NidavellirError


class DocsError(NidavellirError):
    """A problem the user can fix (unknown language or format, unwritable folder, no PDF maker)."""
