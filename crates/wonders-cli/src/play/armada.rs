//! The terminal text of Armada (issue 9 item 15): the log lines of its events
//! ([`wonders_core::armada::ArmadaEvent`]), the Age-end block with the naval conflict and the
//! incursions, and the losses to taxes and pirates at the end of a turn. Values no printed
//! source confirms are marked `†` (armada.md §10).

use super::{SeatNames, plural, roman, say};
use std::fmt::Write as _;
use wonders_core::armada::{ArmadaData, ArmadaEvent, Fleet, IslandId, MoveCause, TrackValue};
use wonders_core::{Catalog, Game, LogEntry, Played};

/// `†` when `provisional`.
fn dagger(provisional: bool) -> &'static str {
    if provisional { "†" } else { "" }
}

/// What a space of a track gives on arrival or while the ship is there, e.g. `trade 2, +4 coins,
/// tax 2`, each value no source confirms marked `†`; empty for a space with nothing.
pub(crate) fn space_text(data: &ArmadaData, fleet: Fleet, step: u8) -> String {
    let Some(space) = data.track(fleet, step) else {
        return String::new();
    };
    let mark = |v: TrackValue| dagger(data.track_status(fleet, step, v).is_some_and(|s| s.is_provisional()));
    let mut parts = Vec::new();
    if space.naval > 0 {
        parts.push(format!("naval {}{}", space.naval, mark(TrackValue::Naval)));
    }
    if space.trade > 0 {
        parts.push(format!("trade {}{}", space.trade, mark(TrackValue::Trade)));
    }
    if space.coins > 0 {
        parts.push(format!("+{} coin{}{}", space.coins, plural(space.coins as u16), mark(TrackValue::Coins)));
    }
    if space.tax > 0 {
        parts.push(format!("tax {}{}", space.tax, mark(TrackValue::Tax)));
    }
    if space.points > 0 {
        parts.push(format!("{} VP{}", space.points, mark(TrackValue::Points)));
    }
    if space.explore > 0 {
        parts.push(format!("explore level {}{}", space.explore, mark(TrackValue::Explore)));
    }
    parts.join(", ")
}

/// An island's name with its Chinese name, level and effect, `†` when a value is provisional:
/// `Topaz Isle (黃玉島, level 1): free move of the yellow ship†`.
pub(crate) fn island_text(data: &ArmadaData, island: IslandId) -> String {
    let Some(def) = data.islands().get(island.0 as usize) else {
        return format!("island #{}", island.0);
    };
    format!(
        "{} ({}, level {}): {}{}",
        def.name,
        def.zh,
        def.level,
        def.effect_text(),
        dagger(def.provisional())
    )
}

/// One Armada event of the log, as a sentence about the city `who`.
pub(crate) fn event_text(catalog: &Catalog, e: &LogEntry, ev: ArmadaEvent, names: &SeatNames) -> String {
    let who = names.get(e.seat as usize);
    let Some(data) = catalog.armada.as_deref() else {
        return format!("{who}: {}", ev.kind());
    };
    if let Some((fleet, to, cause)) = ev.ship_move() {
        let why = match cause {
            MoveCause::Construction => "naval construction",
            MoveCause::Discard => "discard",
            MoveCause::Card => "free move",
            MoveCause::Island => "island's free move",
        };
        let space = space_text(data, fleet, to);
        let space = if space.is_empty() { String::new() } else { format!(" ({space})") };
        return format!("{who}: {fleet} ship {} → {to}{space} [{why}]", to.saturating_sub(1));
    }
    match ev {
        ArmadaEvent::Explored(i) => format!("{who} explored and kept {}", island_text(data, i)),
        ArmadaEvent::TopIsland(i) => format!("{who} took the top island: {}", island_text(data, i)),
        ArmadaEvent::ExploredNothing { level } => {
            format!("{who} explored level {level}: the deck is empty, no island (§10.8†)")
        }
        ArmadaEvent::IncursionToken { target } => format!(
            "{who} hands its incursion token to {}: one more land conflict at the Age end",
            names.get(target as usize)
        ),
        ArmadaEvent::Tax { amount, applies: true } => {
            format!("{who} levies a tax of {amount}: the others lose {amount} − their trade level")
        }
        ArmadaEvent::Tax { amount, applies: false } => {
            format!("{who} levies a tax of {amount}, lower than this turn's highest: it does not apply")
        }
        ArmadaEvent::Piracy { count } => {
            let times = if count > 1 { format!(" ({count} piracies)") } else { String::new() };
            format!("{who} pirates{times}: the others lose 1 coin per trade level each")
        }
        ArmadaEvent::Lost { tax, piracy } => {
            let owed = tax as u16 + piracy as u16;
            let mut why = Vec::new();
            if tax > 0 {
                why.push(format!("{tax} to the tax"));
            }
            if piracy > 0 {
                why.push(format!("{piracy} to pirates"));
            }
            let paid = e.pay.bank as u16;
            let short =
                if paid < owed { format!("; could pay only {paid} (§10.9†)") } else { String::new() };
            format!("{who} loses {owed} coin{} ({}){short}", plural(owed), why.join(", "))
        }
        ArmadaEvent::Immune { owed } => {
            format!("{who} loses nothing (Misty Isle; {owed} coin{} spared)", plural(owed as u16))
        }
        ArmadaEvent::StayedOut => format!("{who} stays out of the naval conflict (Forgotten Port)"),
        ArmadaEvent::Naval { strength, token } => {
            format!("{who}: naval strength {strength}, {}", token_text(token))
        }
        ArmadaEvent::Incursion { target, token } => format!(
            "{who}'s incursion against {}: {} for {who}, {} for the target",
            names.get(target as usize),
            token_text(token),
            token_text(ev.incursion_target_token(e.age).unwrap_or(0))
        ),
        _ => format!("{who}: {}", ev.kind()),
    }
}

/// `token +3`, `token -1` or `no token`.
fn token_text(token: i8) -> String {
    if token == 0 { "no token".into() } else { format!("token {token:+}") }
}

/// The Age-end block of Armada, after the military conflicts: the incursions' extra land
/// conflicts, who stayed out (Forgotten Port) and the naval conflict (each city's strength and
/// token); nothing without the expansion.
pub(crate) fn age_end_text(text: &mut String, game: &Game, age: u8, names: &SeatNames) {
    let catalog = game.catalog();
    if game.armada().is_none() {
        return;
    }
    let events: Vec<(&LogEntry, ArmadaEvent)> = game
        .history()
        .iter()
        .filter(|e| e.age == age)
        .filter_map(|e| match e.played {
            Played::Armada(ev) => Some((e, ev)),
            _ => None,
        })
        .collect();
    let incursions: Vec<_> =
        events.iter().filter(|(_, ev)| matches!(ev, ArmadaEvent::Incursion { .. })).collect();
    if !incursions.is_empty() {
        say!(text, "== End of Age {}: incursions (extra land conflicts) ==", roman(age));
        for (e, ev) in incursions {
            say!(text, "   {}", event_text(catalog, e, *ev, names));
        }
    }
    say!(text, "== End of Age {}: naval conflict ==", roman(age));
    for (e, ev) in &events {
        if matches!(ev, ArmadaEvent::Naval { .. } | ArmadaEvent::StayedOut) {
            say!(text, "   {}", event_text(catalog, e, *ev, names));
        }
    }
}
