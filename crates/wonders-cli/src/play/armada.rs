//! The terminal text of Armada, shared by `play` and `replay`: each city's
//! shipyard, the log lines of the Armada events ([`wonders_core::armada::ArmadaEvent`]: ships
//! moved, islands, taxes, piracies and each city's losses at the end of the turn), the
//! exploration and Forgotten Port choices, and the Age-end block with the incursions and the
//! naval conflict. Every line fits 80 columns (longer ones wrap at words, indented); values no
//! printed source confirms are marked `†` (armada.md §10).

use super::{Screen, SeatNames, plural, roman, say, wrap};
use std::fmt::Write as _;
use wonders_core::armada::{
    ArmadaData, ArmadaEvent, Fleet, IslandId, MoveCause, TOP_STEP, TrackValue, naval_tokens,
};
use wonders_core::{Action, Catalog, Game, LogEntry, Played, View};

/// The width every Armada line fits in.
pub(crate) const WIDTH: usize = 80;

/// Appends `line`, wrapped at [`WIDTH`] columns.
fn put(text: &mut String, line: &str) {
    text.push_str(&wrap(line, WIDTH));
    text.push('\n');
}

/// `†` when `provisional`.
fn dagger(provisional: bool) -> &'static str {
    if provisional { "†" } else { "" }
}

/// The legend of `†`.
pub(crate) const DAGGER_KEY: &str =
    "† provisional value: no printed source confirms it; a working value is used";

/// What a space of a track gives, e.g. `trade 2, +4 coins, tax 2`, each value no source
/// confirms marked `†`; `nothing` for an empty space.
pub(crate) fn space_text(data: &ArmadaData, fleet: Fleet, step: u8) -> String {
    let Some(space) = data.track(fleet, step) else {
        return "nothing".into();
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
    if parts.is_empty() { "nothing".into() } else { parts.join(", ") }
}

/// An island's name, Chinese name, level and effect, `†` when a value is provisional:
/// `Misty Isle (迷霧島, level 1): no coin loss to taxes or pirates`.
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

/// The acting city's shipyard, naval tokens and islands: a line with its naval strength and
/// trade level, then two ships a line with each one's step, the next step's cost and what that
/// step gives. Nothing without the expansion.
pub(crate) fn shipyard_text(text: &mut String, view: &View, city: usize) {
    let Some(armada) = view.armada.as_ref() else {
        return;
    };
    let (data, Some(a)) = (armada.data, armada.cities.get(city)) else {
        return;
    };
    let board = data.board(a.shipyard.board);
    let star = |f: Fleet| if board.wonder == f { "*" } else { "" };
    let strength = a.naval_strength(data);
    let trade = a.trade_level(data);
    let tokens: Vec<String> = (0..3)
        .filter(|&i| a.naval[i] != 0)
        .map(|i| format!("{:+} ({})", a.naval[i], roman(i as u8 + 1)))
        .collect();
    let tokens = if tokens.is_empty() { String::new() } else { format!("; tokens {}", tokens.join(", ")) };
    {
        put(
            text,
            &format!(
                "  shipyard {} (* wonder fleet): naval strength {strength}, trade level {trade}{tokens}",
                board.number
            ),
        );
        // Two ships a line: each one's step, the next step's cost and what that step gives.
        let ships: Vec<String> = Fleet::ALL
            .iter()
            .map(|&f| {
                let step = a.shipyard.step(f);
                let next = match data.next_step_cost(a.shipyard.board, f, step) {
                    Some(cost) => {
                        let st = data.step_cost_status(a.shipyard.board, f, step + 1);
                        let mark = dagger(st.is_some_and(|s| s.is_provisional()));
                        format!("next {cost}{mark} → {}", space_text(data, f, step + 1))
                    }
                    None => "on the top step".into(),
                };
                format!("{f}{} {step}/{TOP_STEP}, {next}", star(f))
            })
            .collect();
        for pair in ships.chunks(2) {
            put(text, &format!("    {}", pair.join("; ")));
        }
        let islands: Vec<String> = a.islands.iter().map(|i| island_text(data, i)).collect();
        if !islands.is_empty() {
            put(text, &format!("  islands: {}", islands.join("; ")));
        }
    }
}

/// What a naval construction of `fleet` gives `city`: `red ship 0→1: naval 1†`, or `None`
/// without the expansion or when the ship is on its top step.
pub(crate) fn construction_text(view: &View, city: usize, fleet: Fleet) -> Option<String> {
    let armada = view.armada.as_ref()?;
    let a = armada.cities.get(city)?;
    let step = a.shipyard.step(fleet);
    (step < TOP_STEP)
        .then(|| format!("{fleet} ship {step}→{}: {}", step + 1, space_text(armada.data, fleet, step + 1)))
}

/// Another city's shipyard in parts to pack on lines: `ships (of 6): red 0, yellow 0, blue* 1,
/// green 2` (the steps reached; `*` the wonder fleet), `naval 0, trade 0`, then its islands and
/// naval tokens when it has any; nothing without the expansion.
pub(crate) fn shipyard_parts(view: &View, city: usize) -> Vec<String> {
    let Some(armada) = view.armada.as_ref() else {
        return Vec::new();
    };
    let (data, Some(a)) = (armada.data, armada.cities.get(city)) else {
        return Vec::new();
    };
    let board = data.board(a.shipyard.board);
    let star = |f: Fleet| if board.wonder == f { "*" } else { "" };
    let ships: Vec<String> =
        Fleet::ALL.iter().map(|&f| format!("{f}{} {}", star(f), a.shipyard.step(f))).collect();
    let mut parts = vec![
        format!("ships (of {TOP_STEP}): {}", ships.join(", ")),
        format!("naval {}, trade {}", a.naval_strength(data), a.trade_level(data)),
    ];
    let islands: Vec<&str> =
        a.islands.iter().filter_map(|i| data.islands().get(i.0 as usize)).map(|d| d.name.as_str()).collect();
    if !islands.is_empty() {
        parts.push(format!("islands: {}", islands.join(", ")));
    }
    let tokens: Vec<String> = (0..3)
        .filter(|&i| a.naval[i] != 0)
        .map(|i| format!("{:+} ({})", a.naval[i], roman(i as u8 + 1)))
        .collect();
    if !tokens.is_empty() {
        parts.push(format!("naval tokens {}", tokens.join(", ")));
    }
    parts
}

/// Whether an event is printed with its step's log; the Age-end conflicts are printed in the
/// Age-end block instead ([`age_end_text`]).
pub(crate) fn in_step_log(ev: ArmadaEvent) -> bool {
    !matches!(ev, ArmadaEvent::Naval { .. } | ArmadaEvent::Incursion { .. })
}

/// The heading of a step whose log starts with an Armada event: the exploration (step 4 of the
/// turn) or Forgotten Port's choice (the Age end).
pub(crate) fn heading(first: &LogEntry) -> Option<String> {
    match first.played {
        Played::Armada(ArmadaEvent::Explored(_) | ArmadaEvent::ExploredNothing { .. }) => {
            Some(format!("Age {}, turn {}, exploration", roman(first.age), first.turn))
        }
        Played::Armada(ArmadaEvent::StayedOut) => {
            Some(format!("End of Age {}, Forgotten Port", roman(first.age)))
        }
        _ => None,
    }
}

/// One Armada event of the log, as a sentence about the city concerned (without the indent).
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
        return format!(
            "{who} {why}: {fleet} ship {}→{to}: {}",
            to.saturating_sub(1),
            space_text(data, fleet, to)
        );
    }
    match ev {
        ArmadaEvent::Explored(i) => format!("{who} explored and kept {}", island_text(data, i)),
        ArmadaEvent::TopIsland(i) => format!("{who} took the top island: {}", island_text(data, i)),
        ArmadaEvent::ExploredNothing { level } => {
            format!("{who} explored level {level}: the deck is empty, no island†")
        }
        ArmadaEvent::IncursionToken { target } => format!(
            "{who} gave its incursion token to {}: one more land conflict at the Age end",
            names.get(target as usize)
        ),
        ArmadaEvent::Tax { amount, applies: true } => {
            format!("{who} levied a tax of {amount} (the others lose {amount} − trade level)")
        }
        ArmadaEvent::Tax { amount, applies: false } => {
            format!("{who} levied a tax of {amount}, below this turn's highest: it does not apply")
        }
        ArmadaEvent::Piracy { count } => {
            let times = if count > 1 { format!(" {count} times") } else { String::new() };
            format!("{who} pirated{times} (the others lose 1 coin per trade level)")
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
            if paid < owed {
                format!(
                    "{who} owed {owed} coin{} ({}) but had only {paid}: paid {paid}†",
                    plural(owed),
                    why.join(", ")
                )
            } else {
                format!("{who} lost {owed} coin{} ({})", plural(owed), why.join(", "))
            }
        }
        ArmadaEvent::Immune { owed } => {
            format!("{who} lost nothing: Misty Isle ({owed} coin{} spared)", plural(owed as u16))
        }
        ArmadaEvent::StayedOut => format!("{who} stayed out of the naval conflict (Forgotten Port)"),
        ArmadaEvent::Naval { strength, token } => {
            format!("{who}: naval strength {strength}, {}", token_text(token))
        }
        ArmadaEvent::Incursion { target, token } => format!(
            "{who} against {}: {} / {}",
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

/// An incursion's land conflict (`ev`, held by `holder`): `3 vs 1 shields{sep}+5 / -2`, or `a tie,
/// no token`.
pub(crate) fn incursion_outcome(game: &Game, holder: usize, ev: ArmadaEvent, age: u8, sep: &str) -> String {
    let ArmadaEvent::Incursion { target, token } = ev else { return String::new() };
    let shields = |c: usize| game.cities().get(c).map_or(0, |c| c.shields);
    let (hs, ts) = (shields(holder), shields(target as usize));
    let tokens = match (token, ev.incursion_target_token(age).unwrap_or(0)) {
        (0, _) => "a tie, no token".to_string(),
        (a, b) => format!("{a:+} / {b:+}"),
    };
    format!("{hs} vs {ts} shields{sep}{tokens}")
}

/// The Age-end block of Armada, after the military conflicts: the incursions' extra land
/// conflicts (shields and tokens) and the naval conflict (each city's strength and token, who
/// stayed out with Forgotten Port); nothing without the expansion.
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
        say!(text, "== End of Age {}: incursions (holder → target, one land conflict each) ==", roman(age));
        for (e, ev) in incursions {
            let ArmadaEvent::Incursion { target, .. } = *ev else { continue };
            let line = format!(
                "   {} → {}: {}",
                names.get(e.seat as usize),
                names.get(target as usize),
                incursion_outcome(game, e.seat as usize, *ev, age, ": ")
            );
            put(text, &line);
        }
    }
    let t = naval_tokens(age);
    let third = if t.third != 0 { format!(", 3rd {:+}", t.third) } else { String::new() };
    say!(
        text,
        "== End of Age {}: naval conflict (strongest {:+}, 2nd {:+}{third}, weakest {:+}) ==",
        roman(age),
        t.first,
        t.second,
        t.weakest
    );
    for (e, ev) in &events {
        if matches!(ev, ArmadaEvent::Naval { .. } | ArmadaEvent::StayedOut) {
            put(text, &format!("   {}", event_text(catalog, e, *ev, names)));
        }
    }
}

/// The exploration choice (step 4 of the turn, armada.md §2.6): each island dealt, with its
/// effect, then one numbered line per way to keep it (one per choice of ships for its free
/// moves). Appends the actions to `shown` in the order they are numbered.
pub(crate) fn explore_choices(
    text: &mut String,
    catalog: &Catalog,
    legal: &[Action],
    shown: &mut Vec<Action>,
    screen: &Screen,
) {
    let Some(data) = catalog.armada.as_deref() else {
        return;
    };
    let mut islands: Vec<IslandId> = Vec::new();
    for a in legal {
        if let Action::ChooseIsland { island, .. } = *a
            && !islands.contains(&island)
        {
            islands.push(island);
        }
    }
    let level = islands.first().and_then(|i| data.islands().get(i.0 as usize)).map_or(0, |d| d.level);
    put(
        text,
        &format!(
            "Your exploration of level {level}: keep one island; the others go back \
             into the deck, shuffled, and only you saw them."
        ),
    );
    for island in islands {
        put(text, &format!("  {}", island_text(data, island)));
        for a in legal {
            let Action::ChooseIsland { island: i, moves } = *a else { continue };
            if i != island {
                continue;
            }
            shown.push(*a);
            let ships: Vec<&str> =
                Fleet::ALL.iter().filter(|&&f| moves & (1 << f as u8) != 0).map(|f| f.name()).collect();
            let name = data.islands().get(island.0 as usize).map_or("it", |d| d.name.as_str());
            let how = if ships.is_empty() {
                format!("keep {name}")
            } else {
                format!("keep {name}, moving the {} ship{}", ships.join(" + "), plural(ships.len() as u16))
            };
            say!(text, "    {} {how}", screen.number(shown.len()));
        }
    }
    say!(text, "{DAGGER_KEY}");
}

/// White-Surf Port's or Tempest Archipelago's free moves when a green card brought the island
/// (000 符號說明: "any 2 or 3 different ships"): the island, then each numbered choice of ships.
pub(crate) fn island_moves_choices(
    text: &mut String,
    catalog: &Catalog,
    legal: &[Action],
    shown: &mut Vec<Action>,
    screen: &Screen,
) {
    let Some(data) = catalog.armada.as_deref() else {
        return;
    };
    let Some(&Action::ChooseIsland { island, .. }) = legal.first() else {
        return;
    };
    put(
        text,
        "Your green card brought this island into your city; its free moves advance different ships \
         of your choice, one step each:",
    );
    put(text, &format!("  {}", island_text(data, island)));
    for a in legal {
        let Action::ChooseIsland { moves, .. } = *a else { continue };
        shown.push(*a);
        let ships: Vec<&str> =
            Fleet::ALL.iter().filter(|&&f| moves & (1 << f as u8) != 0).map(|f| f.name()).collect();
        say!(
            text,
            "    {} move the {} ship{}",
            screen.number(shown.len()),
            ships.join(" + "),
            plural(ships.len() as u16)
        );
    }
    say!(text, "{DAGGER_KEY}");
}

/// Forgotten Port's choice at an Age end (armada.md §6): every city's naval strength and the
/// Age's tokens, then the two numbered choices.
pub(crate) fn opt_out_choices(
    text: &mut String,
    view: &View,
    legal: &[Action],
    names: &SeatNames,
    shown: &mut Vec<Action>,
    screen: &Screen,
) {
    let t = naval_tokens(view.age);
    say!(
        text,
        "Forgotten Port: take part in the Age {} naval conflict, or stay out (no token)?",
        roman(view.age)
    );
    if let Some(armada) = view.armada.as_ref() {
        let strengths: Vec<String> = armada
            .cities
            .iter()
            .enumerate()
            .map(|(c, a)| format!("{} {}", names.get(c), a.naval_strength(armada.data)))
            .collect();
        put(text, &format!("  naval strengths: {}", strengths.join(", ")));
    }
    let third = if t.third != 0 { format!(", 3rd {:+}", t.third) } else { String::new() };
    say!(text, "  tokens: strongest {:+}, 2nd {:+}{third}, weakest {:+}", t.first, t.second, t.weakest);
    for a in legal {
        shown.push(*a);
        let line = match *a {
            Action::StayOutOfNaval { stay_out: true } => "stay out of the naval conflict",
            Action::StayOutOfNaval { stay_out: false } => "take part in the naval conflict",
            _ => "?",
        };
        say!(text, "  {} {line}", screen.number(shown.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PlayArgs, Screen, SeatNames, choice_list, log_text, play};
    use super::*;
    use crate::simulate::ExpansionArgs;
    use std::io::Cursor;
    use wonders_core::armada::{BoardId, Shipyard};
    use wonders_core::{CardId, Edition, Expansions, Naval, Payment, Phase, Setup, Side, WonderDeal};

    /// An Armada game with these boards on side A, every city on shipyard board 1 and `coins`.
    fn game(wonders: &[&str], coins: u16) -> Game {
        let setup = |n| Setup { expansions: Expansions::ARMADA, ..Setup::new(n, 1) };
        let cat = setup(wonders.len() as u8).catalog();
        let chosen = wonders.iter().map(|w| (cat.find_wonder(w).unwrap(), Some(Side::A))).collect();
        let s = Setup { wonders: WonderDeal::Chosen(chosen), ..setup(wonders.len() as u8) };
        let mut g = Game::new(&s).unwrap();
        for c in 0..wonders.len() {
            g.city_mut(c).coins = coins;
            g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
        }
        g
    }

    /// The islands of the legal choices, in the order they are first listed.
    fn dealt_in_order(legal: &[Action]) -> Vec<IslandId> {
        let mut v = Vec::new();
        for a in legal {
            if let Action::ChooseIsland { island, .. } = *a
                && !v.contains(&island)
            {
                v.push(island);
            }
        }
        v
    }

    fn discard_until_last_turn(g: &mut Game) {
        while g.turn() < g.turns() {
            for s in g.to_act() {
                let c = g.hand(s)[0];
                g.submit(s, Action::Discard { card: c }).unwrap();
            }
        }
    }

    /// Every line is at most 80 display columns wide (a Chinese character takes two).
    fn fits(text: &str) {
        use unicode_width::UnicodeWidthStr;
        for line in text.lines() {
            assert!(line.width() <= WIDTH, "wider than {WIDTH} columns: {line:?}");
        }
    }

    #[test]
    fn a_seeded_game_prints_ships_taxes_losses_and_the_naval_conflict() {
        // `play --expansions armada --players 4 --seed 7`, the human answering 1 every time
        // against the heuristic bots (the game a newcomer played to write this text).
        let args = PlayArgs {
            players: 4,
            edition: Edition::First,
            seat: 0,
            seed: Some(7),
            record: None,
            auto: false,
            bots: "heuristic".into(),
            hints: false,
            exp: ExpansionArgs { expansions: Expansions::ARMADA, ..ExpansionArgs::default() },
        };
        let mut out = Vec::new();
        play(&args, &mut Cursor::new("1\n".repeat(400)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for line in [
            // Age I, turn 4: a blue naval construction (blue step 1: 1 VP, provisional) on the
            // line of the play it comes with, and the human's Pirate Hoard (nobody has a trade level yet: nobody loses a coin).
            "   seat 2 (Ephesos B) built Baths (pay 2 left); blue ship 0→1: 1 VP†",
            "   you (seat 0, Rhodes B) pirated (the others lose 1 coin per trade level)",
            // Armada's 7th turn is a turn, not Babylon's last card.
            "-- Age I, turn 7:",
            // Age III, turn 6: seat 2's Pirate Brotherhood; seats 1 and 3 (trade level 1) lose 1
            // coin each, the human (trade level 0) nothing (§2.7). The human's Scientists Guild
            // bought a unit from the 2nd player on the right (East Trading Zone, §5).
            "   you (seat 0, Rhodes B) built Scientists Guild (1 to the 2nd right)",
            "   seat 2 (Ephesos B) pirated (the others lose 1 coin per trade level)",
            "   seat 1 (Halicarnassus A), seat 3 (Alexandria A) each lost 1 coin (1 to pirates)",
            // Age III, turn 7: seat 1's yellow ship reaches step 2 (tax 1); the human and seat 2
            // (trade level 0) lose 1 − 0 = 1 coin, seat 3 (trade level 1) nothing (§2.7).
            "   seat 1 (Halicarnassus A) levied a tax of 1: you (seat 0, Rhodes B), seat 2 (Ephesos B) each lost 1 coin",
            // The Age I naval conflict (§2.5): 2 is strongest (+3), the two 1s are 2nd tied
            // (nothing in Ages I and II), 0 is weakest (−1).
            "== End of Age I: naval conflict (strongest +3, 2nd +1, weakest -1) ==",
            "   seat 1 (Halicarnassus A): naval strength 2, token +3",
            "   seat 2 (Ephesos B): naval strength 1, no token",
            "   you (seat 0, Rhodes B): naval strength 0, token -1",
            // The human's shipyard: each ship, the next step's cost and what it gives, two a
            // line.
            "  shipyard 6 (* wonder fleet): naval strength 0, trade level 0",
            "    blue* 0/6, next C† → 1 VP†; green 0/6, next 1 coin† → nothing",
        ] {
            // (A log line's continuation, indented by 5, joined back.)
            assert!(text.replace("\n     ", " ").lines().any(|l| l == line), "missing {line:?}");
        }
        assert!(!text.contains("Babylon's last card"), "no Babylon at this table");
        // The naval results are printed once per Age, in the Age-end block.
        assert_eq!(text.matches("naval strength 2, token +3").count(), 1);
        let b = text.find("== End of Age I: naval conflict").unwrap();
        assert!(text.find("== End of Age I: military conflicts").unwrap() < b);
        // Every Armada line fits 80 columns: the shipyards, the log (the base game's lines of
        // builds and discards aside), the Age-end blocks (the military lines aside).
        let armada_lines: String = text
            .lines()
            .filter(|l| {
                l.starts_with("  shipyard")
                    || l.starts_with("    ")
                    || l.starts_with("  islands")
                    || l.starts_with("  naval")
                    || l.starts_with("== ")
                    || (l.starts_with("   ")
                        && !l.starts_with("      ")
                        && !l.contains(" built ")
                        && !l.contains(" discarded ")
                        && !l.contains(" shield"))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        fits(&armada_lines);
    }

    #[test]
    fn white_surf_ports_ships_are_a_numbered_choice() {
        // Map Room (a green Armada card, paid from the city's own wood and clay) brings the top
        // level-2 island, White-Surf Port: its owner picks the 2 different ships (000 符號說明).
        let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
        let data = g.catalog().armada.as_deref().unwrap();
        let surf = data.find_island("White-Surf Port").unwrap();
        let deck = &mut g.armada_mut().unwrap().decks[1];
        let at = deck.iter().position(|&i| i == surf).unwrap();
        deck.remove(at);
        deck.push(surf);
        let cat = g.catalog();
        for name in ["Lumber Yard", "Clay Pool"] {
            g.city_mut(0).place(cat, cat.find_card(name).unwrap());
        }
        let map_room = cat.find_card("Map Room").unwrap();
        let h: Vec<CardId> = std::iter::once(map_room)
            .chain(g.hand(0).iter().copied().filter(|&c| c != map_room))
            .take(8)
            .collect();
        g.set_hand(0, &h);
        g.submit(0, Action::Build { card: map_room, pay: Payment::default(), naval: Naval::NONE }).unwrap();
        for s in [1, 2] {
            let c = g.hand(s)[0];
            g.submit(s, Action::Discard { card: c }).unwrap();
        }
        assert_eq!(g.phase(), Phase::IslandMoves { city: 0 });
        let view = g.view(0);
        let legal = g.legal_actions(0);
        let names = SeatNames::new(&g, Some(0));
        let mut text = String::new();
        let shown = choice_list(&mut text, g.catalog(), &view, &legal, &names, &Screen::PLAIN);
        assert_eq!(shown, legal, "the six pairs, numbered in order");
        assert!(text.starts_with("Your green card brought this island into your city"), "{text}");
        assert!(
            text.contains("  White-Surf Port (白瀾港, level 2): free moves of 2 different ships"),
            "{text}"
        );
        assert!(text.contains("\n    [1] move the red + yellow ships\n"), "{text}");
        assert!(text.contains("\n    [6] move the blue + green ships\n"), "{text}");
        fits(&text);
    }

    #[test]
    fn an_exploration_is_a_numbered_choice_of_islands_with_their_effects() {
        // Seat 0 builds Shipyard (1 coin) with a free move of its green ship, 1 → 2: it explores
        // level 1 alone, 4 islands dealt (armada.md §2.6).
        let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
        let yard = g.catalog().find_card("Shipyard").unwrap();
        g.armada_mut().unwrap().cities[0].shipyard.steps[Fleet::Green as usize] = 1;
        let h: Vec<CardId> =
            std::iter::once(yard).chain(g.hand(0).iter().copied().filter(|&c| c != yard)).take(8).collect();
        g.set_hand(0, &h);
        let pay = Payment { bank: 1, ..Payment::default() };
        g.submit(0, Action::Build { card: yard, pay, naval: Naval::new(None, Some(Fleet::Green)) }).unwrap();
        for s in [1, 2] {
            let c = g.hand(s)[0];
            g.submit(s, Action::Discard { card: c }).unwrap();
        }
        assert_eq!(g.phase(), Phase::Explore { city: 0 });
        let view = g.view(0);
        let legal = g.legal_actions(0);
        let names = SeatNames::new(&g, Some(0));
        let mut text = String::new();
        let shown = choice_list(&mut text, g.catalog(), &view, &legal, &names, &Screen::PLAIN);
        assert_eq!(shown.len(), legal.len(), "every way to keep an island is numbered");
        assert!(legal.iter().all(|a| shown.contains(a)));
        let data = g.catalog().armada.as_deref().unwrap();
        let dealt = view.armada.as_ref().unwrap().dealt.clone();
        assert_eq!(dealt.len(), 4);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("Your exploration of level 1: keep one island;"));
        for &i in &dealt {
            // Each island: its name, Chinese name, level 1 and effect, then its numbered choices.
            let head = format!("  {}", island_text(data, i));
            assert!(text.contains(&wrap(&head, WIDTH)), "{head}");
            assert!(head.contains(&data.island(i).zh) && head.contains("level 1"));
        }
        // Numbered lines name the island they keep.
        let first_island = &data.island(dealt_in_order(&legal)[0]).name;
        assert!(text.contains(&format!("\n    [1] keep {first_island}")), "{text}");
        assert_eq!(lines.last().copied(), Some(DAGGER_KEY));
        fits(&text);
        // Keeping one logs it under the exploration's own heading, and only it.
        g.submit(0, shown[0]).unwrap();
        let mut log = String::new();
        log_text(&mut log, g.catalog(), g.last_log(), &names, g.turns(), &Screen::PLAIN);
        let Action::ChooseIsland { island, .. } = shown[0] else { panic!() };
        let first = log.lines().take(2).collect::<Vec<_>>().join("\n");
        assert_eq!(
            first,
            wrap(
                &format!(
                    "-- Age I, turn 1, exploration:\n   you (seat 0, Giza A) explored and kept {}",
                    island_text(data, island)
                ),
                WIDTH
            )
            .lines()
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
        );
        for other in dealt.iter().filter(|&&i| i != island) {
            assert!(!log.contains(&data.island(*other).name), "a returned island is never shown");
        }
    }

    #[test]
    fn the_age_end_block_gives_each_incursion_and_the_naval_conflict() {
        // 6 players (the double incursion of wonders-core's tests/armada.rs): seat 2 builds Dock
        // (1 shield; its token goes to seat 0, the 2nd player on its right), seat 4 (1 shield)
        // holds a second token against seat 0 (no shield): both holders win, +1 / −1 each
        // (§2.8). Naval, Age I: seat 1 (red step 3) +3, seat 3 (red step 1) +1, the others −1.
        let mut g = game(&["Giza", "Olympia", "Rhodes", "Ephesos", "Babylon", "Alexandria"], 3);
        discard_until_last_turn(&mut g);
        let dock = g.catalog().find_card("Dock").unwrap();
        let h: Vec<CardId> =
            std::iter::once(dock).chain(g.hand(2).iter().copied().filter(|&c| c != dock)).take(2).collect();
        g.set_hand(2, &h);
        g.city_mut(4).shields = 1;
        {
            let st = g.armada_mut().unwrap();
            st.cities[1].shipyard.steps[Fleet::Red as usize] = 3;
            st.cities[3].shipyard.steps[Fleet::Red as usize] = 1;
            st.incursions.push((4, 0));
        }
        for s in g.to_act() {
            let a = if s == 2 {
                Action::Build {
                    card: dock,
                    pay: Payment { left: 2, ..Payment::default() },
                    naval: Naval::NONE,
                }
            } else {
                Action::Discard { card: g.hand(s)[0] }
            };
            g.submit(s, a).unwrap();
        }
        let names = SeatNames::new(&g, None);
        let mut log = String::new();
        log_text(&mut log, g.catalog(), g.last_log(), &names, g.turns(), &Screen::PLAIN);
        assert!(
            log.contains("   seat 2 (Rhodes A) gave its incursion token to seat 0 (Giza A): one more land\n"),
            "{log}"
        );
        assert!(!log.contains("naval strength"), "the naval results wait for the Age-end block");
        let mut block = String::new();
        age_end_text(&mut block, &g, 1, &names);
        assert_eq!(
            block.lines().collect::<Vec<_>>(),
            vec![
                "== End of Age I: incursions (holder → target, one land conflict each) ==",
                "   seat 4 (Babylon A) → seat 0 (Giza A): 1 vs 0 shields: +1 / -1",
                "   seat 2 (Rhodes A) → seat 0 (Giza A): 1 vs 0 shields: +1 / -1",
                "== End of Age I: naval conflict (strongest +3, 2nd +1, weakest -1) ==",
                "   seat 0 (Giza A): naval strength 0, token -1",
                "   seat 1 (Olympia A): naval strength 3, token +3",
                "   seat 2 (Rhodes A): naval strength 0, token -1",
                "   seat 3 (Ephesos A): naval strength 1, token +1",
                "   seat 4 (Babylon A): naval strength 0, token -1",
                "   seat 5 (Alexandria A): naval strength 0, token -1",
            ]
        );
    }

    #[test]
    fn forgotten_port_choice_and_the_age_end_block() {
        // Seat 1 (the human) holds Forgotten Port; seat 0 has its red ship on step 2 (naval 2).
        // At the Age I end the human sees every strength and stays out; seat 0 (2) is strongest
        // (+3), seat 2 (0) weakest (−1) (armada.md §2.5, §6).
        let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
        {
            let st = g.armada_mut().unwrap();
            let port = st.data.find_island("Forgotten Port").unwrap();
            st.cities[1].islands.insert(port);
            st.cities[0].shipyard.steps[Fleet::Red as usize] = 2;
        }
        discard_until_last_turn(&mut g);
        for s in g.to_act() {
            let c = g.hand(s)[0];
            g.submit(s, Action::Discard { card: c }).unwrap();
        }
        assert_eq!(g.phase(), Phase::NavalOptOut { city: 1 });
        let names = SeatNames::new(&g, Some(1));
        let legal = g.legal_actions(1);
        let mut text = String::new();
        let shown = choice_list(&mut text, g.catalog(), &g.view(1), &legal, &names, &Screen::PLAIN);
        fits(&text);
        assert_eq!(
            text.lines().take(4).collect::<Vec<_>>(),
            vec![
                "Forgotten Port: take part in the Age I naval conflict, or stay out (no token)?",
                "  naval strengths: seat 0 (Giza A) 2, you (seat 1, Olympia A) 0, seat 2 (Rhodes",
                "    A) 0",
                "  tokens: strongest +3, 2nd +1, weakest -1",
            ]
        );
        let out = shown.iter().position(|a| *a == Action::StayOutOfNaval { stay_out: true }).unwrap();
        g.submit(1, shown[out]).unwrap();
        let mut log = String::new();
        log_text(&mut log, g.catalog(), g.last_log(), &names, g.turns(), &Screen::PLAIN);
        assert_eq!(
            log,
            "-- End of Age I, Forgotten Port:\n   you (seat 1, Olympia A) stayed out of the naval conflict \
             (Forgotten Port)\n"
        );
        let mut block = String::new();
        age_end_text(&mut block, &g, 1, &names);
        assert_eq!(
            block,
            "== End of Age I: naval conflict (strongest +3, 2nd +1, weakest -1) ==\n\
             \x20  you (seat 1, Olympia A) stayed out of the naval conflict (Forgotten Port)\n\
             \x20  seat 0 (Giza A): naval strength 2, token +3\n\
             \x20  seat 2 (Rhodes A): naval strength 0, token -1\n"
        );
    }
}
