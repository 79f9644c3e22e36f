"""The dialogue: the turn loop that talks with the table, its history and its save files."""
