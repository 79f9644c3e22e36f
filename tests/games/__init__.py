"""Games the tests add to the registry themselves: each one a folder of its own (engine, table, spec, what it says
and what it hears), plugged in with registry.register(SPEC)."""
