"""The commented log template of `sleuth new suspeicao`: the whole event schema, and a
consistent log as it stands."""

TEMPLATE = """\
# Suspeição log for Sleuth (RULINGS.md §4, docs/suspeicao.md). Cards are numbers, or X1-X6.
# The deck is a MODEL of the real one: give your copy's cards with `deck: FILE` (see the docs).
# One `play` per turn: the card played (its action comes from the deck) and its public outcome.
# `by` may be left out (it is whoever's turn it is). Details only some players see (took, gave,
# bought, returned, drew) are given exactly when `me` sees them.
game: suspeicao
players: [Ana, Ben, Cleo]          # 3 to 6, in seat order
me: Ana                            # whose knowledge is computed
# options: {bluff_rate: 1/5, force_reveal: uniform}   # the probability model's options
# blocking: true                   # the blocking mode (blocked: {Ben: X1} on a play)
events:
  - deal: {incriminating: [7, 21, 33, 41], hand: [2, 15, 40, X1], first: Ana}
  - play: {card: 2, target: Ben, revealed: 13, drew: [5]}      # REVEAL; I drew a 5 at the end
  - play: {by: Ben, card: 8, target: Cleo, revealed: 3}        # FORCE 1-17: Cleo showed the 3
  - play: {by: Cleo, card: 1, target: Ana, none: true, polygraph: 40, returned: 15}
                                               # FORCE odd on me: I claimed none; polygraph
  - play: {card: 5, target: Ben, took: 30, drew: [9]}          # my TAKE: I took Ben's 30
  - play: {by: Ben, card: 11, target: Cleo}                    # EXCHANGE between others: unseen
  - play: {by: Cleo, card: 6}                                  # BUY (bought: N when I buy)
  - play: {card: 9, target: Cleo, revealed: 21, drew: [12]}    # REVEAL found evidence: +1 me
  - play: {by: Ben, card: 4, target: Ana, revealed: 30}        # FORCE even: I showed the 30
  # - play: {by: Cleo, card: 35, target: Ben, evidence: 21}   # PASS the evidence in front
  # - play: {by: Cleo, card: 33}                               # incriminating: accused
  #                                                            #   (accused: false: unnoticed)
  # - skip: {by: Ben}                                          # a final turn passed
  # - end: {Ana: [41], Ben: [], Cleo: []}                      # evidence kept, for scoring
  # Generic events:
  # - move: {from: Ben, to: Cleo}                              # a hidden card; card: N if seen
  # - show: {player: Ben, card: 13}                            # Ben showed me a card he keeps
  # - fact: {player: Ben, lacks: odd}                          # has: / lacks: a requirement
"""
