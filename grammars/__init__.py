"""Everything the program hears, per language and game: installed as the package companion.grammars."""
