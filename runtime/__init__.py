"""runtime"""
from .native import choose

choose()  # (compiled modules, or their sources: before any of them is imported)
