# PYTHON_ARGCOMPLETE_OK
"""`python -m nidavellir`: the same command line as `nidavellir` (DESIGN §8)."""
import sys

from nidavellir.cli import main

if __name__ == "__main__":
    sys.exit(main())
