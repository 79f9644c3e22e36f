"""Language: message catalogs, names of game pieces, grammars and tactile number codes."""
