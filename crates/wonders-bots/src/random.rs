//! The uniformly random player.

use crate::Bot;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::{Action, View};

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
