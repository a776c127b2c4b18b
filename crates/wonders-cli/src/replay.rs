//! `wonders replay`: checks a game record, then prints its log step by step and the final scores.

use crate::play::{
    Screen, SeatNames, edifice_age_text, emit, log_text, military_text, roman, say, score_sheet,
    step_resolved, wrap,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use wonders_core::score::Score;
use wonders_core::{Game, MilitaryTokens, Played, Record};

/// One city's line of the `--json` output.
#[derive(Serialize)]
struct SeatScore {
    /// The seat, or `null` for the Free City of the 2-player variant.
    seat: Option<usize>,
    /// The wonder board (`wonder` is the category of points).
    board: String,
    side: String,
    #[serde(flatten)]
    score: Score,
    coins: u16,
    /// 1 for the winners; `null` for the Free City, which is no player.
    rank: Option<u8>,
}

/// The `--json` output.
#[derive(Serialize)]
struct Final {
    players: usize,
    seed: u64,
    /// Whether the record reaches the end of the game (otherwise the scores are as of its end).
    over: bool,
    scores: Vec<SeatScore>,
}

/// Runs `wonders replay FILE [--json]`.
pub fn run(path: &Path, json: bool) -> Result<(), String> {
    let text = crate::read_input(path)?;
    let source =
        if path.as_os_str() == "-" { "standard input".to_string() } else { path.display().to_string() };
    let record: Record =
        serde_json::from_str(&text).map_err(|e| format!("{source} is not a game record: {e}"))?;
    // Checks every action and the recorded scores.
    let end = record.replay().map_err(|e| format!("{source} does not replay: {e}"))?;
    let mut out = std::io::stdout().lock();
    if json {
        let text = serde_json::to_string_pretty(&final_scores(&end)).map_err(|e| e.to_string())?;
        return emit(&mut out, &format!("{text}\n"));
    }

    let setup = record.setup().map_err(|e| e.to_string())?;
    let mut game = Game::new(&setup).map_err(|e| e.to_string())?;
    let catalog = game.catalog();
    let mut names = SeatNames::new(&game, None);
    // Lines fit the terminal (80 columns in a pipe), as `wonders play` writes them.
    let screen = Screen::stdout(false);
    let mut text = String::new();
    say!(
        text,
        "Game record: {}, {} players, seed {}, {} actions",
        crate::simulate::edition_name(game.edition()),
        record.players,
        record.seed,
        record.actions.len()
    );
    for index in 0..game.cities().len() {
        say!(text, "  {}", names.get(index));
    }
    emit(&mut out, &text)?;
    let mut age = game.age();
    let mut tokens: Vec<MilitaryTokens> = game.cities().iter().map(|c| c.tokens).collect();
    for (index, ra) in record.actions.iter().enumerate() {
        let seat = ra.seat as usize;
        let action = ra.action.to_action_in(&game, seat).map_err(|e| format!("action {index}: {e}"))?;
        game.submit(seat, action).map_err(|e| format!("action {index} (seat {seat}): {e}"))?;
        if !step_resolved(&game) {
            continue;
        }
        if game.last_log().iter().any(|e| matches!(e.played, Played::ChoseSide(_))) {
            names = SeatNames::new(&game, None);
        }
        let mut text = String::new();
        log_text(&mut text, catalog, game.last_log(), &names, game.turns(), &screen);
        if game.age() != age || game.is_over() {
            edifice_age_text(&mut text, &game, age, &names);
            military_text(&mut text, &game, age, &tokens, &names);
            crate::play::armada::age_end_text(&mut text, &game, age, &names);
            age = game.age();
            tokens = game.cities().iter().map(|c| c.tokens).collect();
        }
        emit(&mut out, &wrap(&text, screen.width))?;
    }

    let mut text = String::new();
    say!(text);
    if game.is_over() {
        say!(text, "Final scores:");
    } else {
        say!(
            text,
            "The record stops before the end of the game (Age {}, turn {}); scores so far:",
            roman(game.age()),
            game.turn()
        );
    }
    score_sheet(&mut text, &game, &names);
    emit(&mut out, &text)
}

fn final_scores(game: &Game) -> Final {
    let catalog = game.catalog();
    let rank = game.ranks();
    Final {
        players: game.players(),
        seed: game.seed(),
        over: game.is_over(),
        scores: game
            .scores()
            .iter()
            .zip(game.cities())
            .enumerate()
            .map(|(index, (score, city))| SeatScore {
                seat: (game.free_city() != Some(index)).then_some(index),
                board: catalog.wonder(city.wonder).name.clone(),
                side: city.side.label(catalog.edition).to_string(),
                score: *score,
                coins: city.coins,
                rank: rank.get(index).copied(),
            })
            .collect(),
    }
}
