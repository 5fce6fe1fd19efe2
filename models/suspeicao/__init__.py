"""Suspeição (RULINGS.md §4): the deck model, the log, the exact filter, advice and self-play."""

from models.suspeicao.game import GAME_OBJECT as GAME

__all__ = ["GAME"]
