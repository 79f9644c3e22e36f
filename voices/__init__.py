"""Everything the program says, per language: installed as the package companion.voices."""
