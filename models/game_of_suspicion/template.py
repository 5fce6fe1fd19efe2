"""The commented log template of `sleuth new game-of-suspicion`: the whole event schema."""

TEMPLATE = """\
# Game of Suspicion log for Sleuth (RULINGS.md §3). Cards are values 0-9 (and 10 in the advanced
# game). `by` may be left out when the actor is `me`. Middle slots: left, right (after an 8 only
# `left` holds a card). Details only one player sees (saw, gave, got, hands, shown cards) are
# given only when that player is `me`.
game: game-of-suspicion
players: [Ana, Ben, Cleo, Dan]     # 3 or 4, in seat order
me: Ana                            # whose knowledge is computed (leave out: public information only)
advanced: false                    # true: the 10 is shuffled in and one card is set aside
# options: {choice_unit: card, announce_model: restrict,   # the probability model's options
#           card0_one_card: unaffected, card6_ten_rank: zero,   # two rulings (see the docs)
#           turn_order: rulebook}                           # free: turns in any order
events:
  - deal: {hand: [0, 1, 5, 7]}     # + shadow: [4 cards] with 3 players, aside: V when advanced
  # Turns pass to the left (seat order), skipping players who are out; each is one action:
  # A look, B play or C guess. A right guess lets the guesser guess again.
  # A: look at a middle card. Another player announces; I say what I saw and put back.
  - look: {by: Ben, slot: left, exchanged: true}
  # B: play a card face up, with its public outcome (and mine, where I see more).
  - play: {by: Cleo, card: 0, between: [Ben, Dan]}     # I am one of them: + gave: V, got: V
  - play: {by: Dan, card: 1, named: 9, holder: Ben}    # holder: none; I act: + gave: V;
                                                       # I am the holder: + got: V
  - look: {slot: right, saw: 0, put_back: 1}          # my look: exchanged; left out = kept
  - play: {by: Ben, card: 2, showed: [Ana, Dan]}       # the others declined; I act: + hands: {...}
  - play: {by: Cleo, card: 3, target: Ben, guesses: [[0, 1, 1], [0, 0, 1]], correct: false}
  - play: {by: Dan, card: 4, shown: {Ana: 2, Ben: 1, Cleo: 0}}   # counts; I act: lists of cards
  - play: {card: 5, shown: {Ben: [], Cleo: [], Dan: [8]}}
  - play: {by: Ben, card: 9}                           # record its effect with move/show/fact
  # - play: {by: Ben, card: 7, out: {Cleo: [0, 0, 3]}}  # not in round 1; {} if nobody is out
  # - play: {by: Ben, card: 8}                         # I act: + saw: [LEFT, RIGHT], put: V
  # - play: {by: Ben, card: 6, face_up: {Ana: 0, Cleo: 0, Dan: 1}}  # players with 2+ cards
  # C: guess a whole hand (name 0 and 1 for the 10). A correct guess puts the player out.
  - guess: {by: Cleo, target: Ben, cards: [0, 9], correct: false}
  # - skip: {by: Dan}                                  # a turn Dan let pass (a house rule)
  # Generic events, for card 9 or a house rule:
  # - move: {from: Ben, to: Cleo}                      # a hidden card (the giver's choice)
  # - move: {from: Ben, to: table, card: 9}            # places: players, left, right, table
  # - show: {player: Ben, cards: [9], to: [Ana]}       # to: all (default); whole: true = whole hand
  # - fact: {player: Ben, lacks: [2, 3]}               # has, lacks, sum_above, sum_at_most, hand,
  #                                                    # count: {of: [5, 7], is: 1}
  # - scores: {Ana: 4, Ben: 0}                         # points carried from earlier rounds
  # - deal: {hand: [...]}                              # the next round
"""
