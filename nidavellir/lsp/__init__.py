"""`nidavellir lsp`: a language server for rules YAML (work in progress)."""
