"""6 Suspects (RULINGS.md §2): which suspect's evidence adds up to the most."""

from models.six_suspects.game import SixSuspects

GAME = SixSuspects()
