"""Suspeição (RULINGS.md §4): the deck model and its rules. The game is not in the registry yet:
its log reader, exact filter and commands are still to come (issue 5)."""
