"""The contract between the compiler, the compiled rules and the runtime.

Both sides import this package and nothing of each other: the events and flow steps the runtime
implements (`events`), the typed compiled rule set (`rules`), the engine interface compiled
handlers call (`engine`), decisions (`decisions`), the helpers generated code uses (`support`) and
the bound on every number read from outside (`numbers`).
"""
