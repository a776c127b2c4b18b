"""A whole 4-player game of random bots, then the score sheet (the guide's first Python script)."""
import wonders

game = wonders.Game(4, seed=42)
bots = {seat: wonders.Bot("random", seed=seat) for seat in range(4)}
game.play_bots(bots)  # the bots play until the game is over
assert game.is_over()
for seat, (score, rank) in enumerate(zip(game.scores(), game.ranks())):
    print(f"seat {seat}: {score['total']} points, rank {rank}")
