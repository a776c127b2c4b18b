//! The random players: uniform among the legal actions ([`RandomBot`]), or a card first
//! ([`CardFirstBot`]).

use crate::{Bot, PlayError};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::{Action, Game, Phase, View};

/// Picks uniformly among the legal actions, with its own seeded generator: the same seed and the
/// same game give the same choices. Each way to pay is a separate legal action, so a card with
/// several payments is a little more likely to be built than one with a single payment.
///
/// It allocates nothing when choosing.
///
/// ```
/// use wonders_bots::{Bot, RandomBot};
/// use wonders_core::{Game, Setup};
///
/// let game = Game::new(&Setup::new(3, 5)).unwrap();
/// let legal = game.legal_actions(0);
/// let mut a = RandomBot::new(42);
/// let mut b = RandomBot::new(42);
/// let choice = a.choose(&game.view(0), &legal);
/// assert!(legal.contains(&choice));
/// assert_eq!(choice, b.choose(&game.view(0), &legal));
/// assert_eq!(a.name(), "random");
/// ```
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    /// One of `legal`, uniformly at random; [`Action::Pass`] if `legal` is empty (the game never
    /// asks with an empty list).
    fn choose(&mut self, _view: &View, legal: &[Action]) -> Action {
        match legal.len() {
            0 => Action::Pass,
            n => legal[self.rng.random_range(0..n)],
        }
    }

    /// The same draw as [`RandomBot::choose`], answered as its place in `legal`.
    fn choose_index(&mut self, _view: &View, legal: &[Action]) -> Result<usize, Action> {
        match legal.len() {
            0 => Err(Action::Pass),
            n => Ok(self.rng.random_range(0..n)),
        }
    }

    fn name(&self) -> String {
        "random".into()
    }

    /// The random bot never looks at the view.
    fn reads_view(&self) -> bool {
        false
    }
}

/// The card-first random player: when it plays from its own hand it draws one of the cards it
/// holds (each card of the hand equally likely; two copies count twice), then one of that card's
/// legal actions (build with each payment, wonder stage with each payment, discard, and Armada's
/// naval variants), uniformly. In any other step (choosing a side, building from the discard
/// pile, Armada's islands and naval opt-out, Edifice's discard, the Free City's turn in the
/// 2-player variant) it draws uniformly among all the legal actions, as [`RandomBot`] does.
///
/// Its games are as exact as [`RandomBot`]'s (every action is a legal one) but follow another
/// distribution: a card with many payments is no likelier to be played than one with a single
/// payment, and discards are likelier. It is played by [`play_out_card_first`], which works out
/// only the drawn card's actions ([`Game::card_actions_into`]) instead of the whole list: about
/// 1.6 times as many games per second (`wonders simulate --policy card-first`).
#[derive(Clone, Debug)]
pub struct CardFirstBot {
    rng: ChaCha8Rng,
}

impl CardFirstBot {
    /// A player whose draws follow from `seed`.
    pub fn new(seed: u64) -> CardFirstBot {
        CardFirstBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// A place among `n` (at least 1), uniformly.
    fn draw(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }
}

/// The same policy from a seat's view and the whole legal list, for any driver ([`play_out`],
/// `wonders arena`, the Python package): the same draws, so the same games as
/// [`play_out_card_first`] from the same seeds, only slower (the whole list is worked out).
///
/// [`play_out`]: crate::play_out
impl Bot for CardFirstBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        match self.choose_index(view, legal) {
            Ok(i) => legal[i],
            Err(a) => a,
        }
    }

    fn choose_index(&mut self, view: &View, legal: &[Action]) -> Result<usize, Action> {
        if legal.is_empty() {
            return Err(Action::Pass);
        }
        let own_hand = matches!(view.phase, Phase::Choose | Phase::PlayLastCard { .. })
            && view.acting_city == view.seat
            && !view.hand.is_empty();
        if own_hand {
            let card = view.hand[self.draw(view.hand.len())];
            let with_card = legal.iter().filter(|a| a.card() == Some(card)).count();
            if with_card > 0 {
                let k = self.draw(with_card);
                let place = legal.iter().enumerate().filter(|(_, a)| a.card() == Some(card)).nth(k);
                return Ok(place.map_or(0, |(i, _)| i));
            }
        }
        Ok(self.draw(legal.len()))
    }

    fn name(&self) -> String {
        "card-first".into()
    }
}

/// Plays `game` to its end with one [`CardFirstBot`] per seat, `legal` being the scratch buffer
/// of the actions (reused: nothing is allocated per move once it has grown). A game already over
/// is left as it is.
///
/// ```
/// use wonders_bots::{CardFirstBot, play_out_card_first};
/// use wonders_core::{Game, Setup};
///
/// let mut bots: Vec<CardFirstBot> = (0..4).map(CardFirstBot::new).collect();
/// let mut game = Game::new(&Setup::new(4, 9)).unwrap();
/// play_out_card_first(&mut game, &mut bots, &mut Vec::new()).unwrap();
/// assert!(game.is_over());
/// ```
pub fn play_out_card_first(
    game: &mut Game,
    bots: &mut [CardFirstBot],
    legal: &mut Vec<Action>,
) -> Result<(), PlayError> {
    if bots.len() != game.players() {
        return Err(PlayError::Seats { bots: bots.len(), players: game.players() });
    }
    while !game.is_over() {
        for seat in game.to_act() {
            let bot = &mut bots[seat];
            let hand = game.hand(seat);
            let own_hand = matches!(game.phase(), Phase::Choose | Phase::PlayLastCard { .. })
                && game.acting_city(seat) == seat
                && !hand.is_empty();
            if own_hand {
                let card = hand[bot.draw(hand.len())];
                game.card_actions_into(seat, card, legal);
            }
            if !own_hand || legal.is_empty() {
                game.legal_actions_into(seat, legal);
            }
            if legal.is_empty() {
                // The engine always gives a seat to act an action; say so rather than loop.
                return Err(PlayError::NoSuchChoice { seat, bot: "card-first".into(), index: 0, legal: 0 });
            }
            let action = legal[bot.draw(legal.len())];
            game.submit_trusted(seat, action);
        }
    }
    Ok(())
}
