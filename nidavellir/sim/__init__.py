"""`nidavellir simulate` and `nidavellir report`: many seeded games of one or two rule sets, their
records on disk, and what the records say (per seat, per card, a variant against the base)."""
