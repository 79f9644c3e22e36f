"""A race of two pawns on a line of squares, played only by the tests: the proof that a game is one folder.

Each player in turn moves their pawn 1 to 3 squares on; the pawn must stop on the last square exactly, and the
first to reach it wins. Its files: engine.py (the rules), table.py (the conversation), spec.py (what the
program knows of it), voices/<lang>/ (what it says: messages, rules) and grammars/ (what it hears)."""
