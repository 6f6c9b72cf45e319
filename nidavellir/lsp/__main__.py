"""`python -m nidavellir.lsp`: the language server over stdio."""
from nidavellir.lsp import serve

raise SystemExit(serve())
