"""Three of a Crime (RULINGS.md §1): which three suspects are on the eyewitness's card."""

from models.three_of_a_crime.game import ThreeOfACrime

GAME = ThreeOfACrime()
