//! `wonders play`: a whole game in the terminal, line by line, against bots (`--bots`; heuristic
//! by default).
//!
//! The human sees what a person at the table would see: their hand, their city and their
//! neighbours' cities, and after each step what every seat did. Each legal action is one numbered
//! line, grouped by card, with what it costs. Both editions play; two players play the 1st
//! edition's Free City variant, where the human also chooses for the Free City when holding its
//! card. The module also holds the text shared with `wonders replay`: log lines, payment
//! descriptions and the score sheet.

pub(crate) mod armada;

use crate::simulate::{ExpansionArgs, bot_seed, edition_name, expansions_text, parse_edition, setup_for};
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr;
use wonders_bots::{BOT_NAMES_HELP, Bot, RandomBot, bot_from_name, normalize_bot_name, notify_game_over};
use wonders_core::edifice::{EdificeEvent, Outcome};
use wonders_core::score::Score;
use wonders_core::{
    Action, CardId, Catalog, City, Colour, Edition, FreeBy, Game, LogEntry, MilitaryTokens, Payment, Phase,
    Played, Production, Record, Resource, Setup, View,
};

/// Appends one formatted line to a `String` (writing to a `String` cannot fail).
macro_rules! say {
    ($dst:expr) => {
        $dst.push('\n')
    };
    ($dst:expr, $($arg:tt)*) => {{
        let _ = writeln!($dst, $($arg)*);
    }};
}
pub(crate) use say;

/// Options of `wonders play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Players, 3 to 7; 2 plays the 1st edition's Free City variant; 8 with Armada.
    #[arg(long, short = 'p', value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(2..=8))]
    pub players: u8,
    /// The edition: 1e (random boards and sides) or 2e (random boards, you choose the side).
    #[arg(long, short = 'e', value_name = "EDITION", default_value = "1e", value_parser = parse_edition)]
    pub edition: Edition,
    /// Your seat, from 0 to N-1.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub seat: usize,
    /// The seed of the deal (and of the bots) [default: from the clock; it is printed].
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,
    /// Write the game record (JSON) to this file at the end; `wonders replay` checks it.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// A bot plays your seat too: the whole game runs without input.
    #[arg(long)]
    pub auto: bool,
    /// The bots at the other seats (default: the heuristic bot): one name for all of them, or a comma-separated list of one per
    /// other seat in seat order, skipping yours (with --auto, a list may also name all N seats;
    /// otherwise your seat plays random). Bots: random, card-first (random, a card first),
    /// heuristic, search[:budget] (100 ms per move; a budget is <T>ms, <T>s or <N>it, plus :<K>t
    /// for K threads, e.g. search:200ms:2t), exec:COMMAND[:timeout=<T>] for a program speaking
    /// the bot protocol (`wonders bot-protocol`; the command cannot hold a comma).
    #[arg(long, short = 'b', value_name = "LIST", default_value = "heuristic")]
    pub bots: String,
    /// Expansions and their data.
    #[command(flatten)]
    pub exp: ExpansionArgs,
}

/// The bot name of every seat from a `--bots` list: one name for all seats; one per seat but
/// `seat` (which gets `random`); or, when `all_allowed`, one per seat.
pub(crate) fn seat_bot_names(
    list: &str,
    players: usize,
    seat: usize,
    all_allowed: bool,
) -> Result<Vec<String>, String> {
    let names: Vec<String> = list.split(',').map(normalize_bot_name).collect();
    for name in &names {
        if name.is_empty() {
            return Err(format!("--bots has an empty name; known bots: {BOT_NAMES_HELP}"));
        }
        bot_from_name(name, 0)?;
    }
    let out = match names.len() {
        1 => vec![names[0].clone(); players],
        k if k + 1 == players => {
            let mut out = names.clone();
            out.insert(seat.min(k), "random".to_string());
            out
        }
        k if k == players && all_allowed => names,
        k => {
            return Err(format!(
                "--bots lists {k} bots: give one name for every bot, or one per other seat ({}){}",
                players - 1,
                if all_allowed { format!(", or one per seat ({players})") } else { String::new() }
            ));
        }
    };
    Ok(out)
}

/// Runs `wonders play` on the terminal.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let echo = !stdin.is_terminal();
    if stdout.is_terminal() {
        // Lines fit the terminal's width, wrapped at words.
        let width = usize::from(console::Term::stdout().size().1).max(40);
        let mut out = Wrapping { inner: stdout.lock(), width };
        return play(args, &mut stdin.lock(), echo, &mut out);
    }
    play(args, &mut stdin.lock(), echo, &mut stdout.lock())
}

/// A writer that wraps each line it is given at `width` columns (see [`wrap`]).
struct Wrapping<W: Write> {
    inner: W,
    width: usize,
}

impl<W: Write> Write for Wrapping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.inner.write_all(wrap(&text, self.width).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Wraps every line of `text` wider than `width` columns at spaces; continuation lines keep the
/// line's indentation plus two spaces. A word longer than the width stays whole. Widths are
/// display columns: a Chinese character (islands', projects' names) takes two.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.width() <= width {
            out.push_str(line);
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let cont = " ".repeat(indent + 2);
        let mut col = 0;
        let mut first = true;
        for word in line.trim_start().split(' ') {
            let w = word.width();
            if first {
                out.push_str(&line[..indent]);
                out.push_str(word);
                col = indent + w;
                first = false;
            } else if col + 1 + w > width {
                out.push('\n');
                out.push_str(&cont);
                out.push_str(word);
                col = cont.len() + w;
            } else {
                out.push(' ');
                out.push_str(word);
                col += 1 + w;
            }
        }
    }
    out
}

/// Refuses a record path that cannot be written (a directory, or in a missing directory),
/// without creating or changing anything.
fn check_record_path(path: &std::path::Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("cannot write the record to {}: it is a directory", path.display()));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        return Err(format!(
            "cannot write the record to {}: no directory {}",
            path.display(),
            parent.display()
        ));
    }
    if path.exists() && std::fs::OpenOptions::new().append(true).open(path).is_err() {
        return Err(format!("cannot write the record to {}: the file is not writable", path.display()));
    }
    Ok(())
}

/// Saves the record: written to a temporary file beside it, then renamed over it, so an existing
/// file changes only once the whole record is written.
fn save_record(path: &std::path::Path, json: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, format!("{json}\n")).and_then(|()| std::fs::rename(&tmp, path)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("writing {}: {e}", path.display())
    })
}

pub(crate) use crate::output::emit;

/// Plays a game reading the human's choices from `input` and writing to `out`.
/// With `echo`, each answer read is written back (for input that is not typed on a terminal).
fn play(args: &PlayArgs, input: &mut dyn BufRead, echo: bool, out: &mut dyn Write) -> Result<(), String> {
    let n = args.players as usize;
    if args.seat >= n {
        return Err(format!(
            "--seat {} is out of range: a {n}-player game has seats 0 to {}",
            args.seat,
            n - 1
        ));
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let setup = Setup {
        expansions: args.exp.expansions,
        teams: args.exp.teams,
        ..setup_for(args.edition, args.players, seed)
    };
    let mut game = args.exp.game(args.exp.catalog(args.edition)?, setup.clone())?;
    let catalog = game.catalog();
    // Check the record's path now, so a bad path fails before the game rather than after it; an
    // existing file is left untouched until the record is saved.
    if let Some(path) = &args.record {
        check_record_path(path)?;
    }
    let mut record = Record::new(&setup, catalog);
    let human = (!args.auto).then_some(args.seat);
    let bot_names = seat_bot_names(&args.bots, game.players(), args.seat, args.auto)?;
    crate::botproto::probe_exec_bots(&bot_names, &setup)?;
    let mut names = SeatNames::new(&game, human);

    let mut text = String::new();
    say!(
        text,
        "7 Wonders, {}{}, {n} players, seed {seed} (play this deal again with --seed {seed})",
        edition_name(args.edition),
        expansions_text(args.exp.expansions)
    );
    for (city_index, city) in game.cities().iter().enumerate() {
        let bot = match bot_names.get(city_index) {
            Some(b) if human != Some(city_index) => format!(" — bot: {b}"),
            _ => String::new(),
        };
        say!(text, "  {}: {}{bot}", names.get(city_index), catalog.wonder(city.wonder).full_name);
    }
    if game.teams() {
        let teams: Vec<String> =
            (0..n).step_by(2).map(|s| format!("{} + {}", names.get(s), names.get(s + 1))).collect();
        say!(
            text,
            "Teams: {}. Teammates see each other's hand; land conflicts only against the adjacent \
             opponent, with double tokens; the team with the highest summed score wins.",
            teams.join("; ")
        );
    }
    if game.phase() == Phase::ChooseSide {
        say!(text, "Each player chooses the side of the board drawn (its sides are shown first).");
    }
    if let Some(holder) = game.free_city_holder() {
        say!(
            text,
            "{} holds the Free City card: each turn its holder chooses its own card first, then the Free \
             City's (the card passes with the hand).",
            names.get(holder)
        );
    }
    if human.is_none() {
        say!(text, "Every seat is played by a bot (--auto).");
    }
    say!(text, "Resources: W wood, S stone, C clay, O ore (raw); G glass, L loom, P papyrus (manufactured).");
    if game.armada().is_some() {
        say!(text, "Armada: {}", armada::DAGGER_KEY);
    }
    emit(out, &text)?;

    let outcome =
        play_to_end(&mut game, &mut record, (seed, &bot_names), human, &mut names, (input, echo), out);
    let mut text = String::new();
    if outcome.is_ok() {
        say!(text);
        say!(text, "Final scores:");
        score_sheet(&mut text, &game, &names);
    }
    if let Some(path) = &args.record {
        if game.is_over() {
            record.scores = Some(game.scores());
        }
        let json = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())?;
        save_record(path, &json)?;
        match &outcome {
            Ok(()) => {
                say!(text, "The game record is in {} (check it with `wonders replay`).", path.display())
            }
            Err(e) => return Err(format!("{e} (the record so far is in {})", path.display())),
        }
    }
    outcome?;
    emit(out, &text)
}

/// Plays the game to its end: the human (if any) chooses through `ask`, the bots named in
/// `bots.1` (one per seat, seeded from `bots.0`) elsewhere. Every action goes into `record`; each
/// step's log is printed when it resolves.
fn play_to_end(
    game: &mut Game,
    record: &mut Record,
    bots: (u64, &[String]),
    human: Option<usize>,
    names: &mut SeatNames,
    input: (&mut dyn BufRead, bool),
    out: &mut dyn Write,
) -> Result<(), String> {
    let (input, echo) = input;
    let catalog = game.catalog();
    let (seed, bot_names) = bots;
    let mut bots: Vec<Box<dyn Bot + Send>> = (0..game.players())
        .map(|s| match bot_names.get(s) {
            Some(name) => bot_from_name(name, bot_seed(seed, s)),
            None => Ok(Box::new(RandomBot::new(bot_seed(seed, s))) as Box<dyn Bot + Send>),
        })
        .collect::<Result<_, _>>()?;
    let mut legal = Vec::new();
    let mut age = game.age();
    let mut tokens: Vec<MilitaryTokens> = game.cities().iter().map(|c| c.tokens).collect();
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            game.legal_actions_into(seat, &mut legal);
            let view = game.view(seat);
            let action = if human == Some(seat) {
                ask(catalog, &view, &legal, names, (&mut *input, echo), out)?
            } else {
                bots[seat].choose(&view, &legal)
            };
            record.push(catalog, seat, &action);
            game.submit(seat, action).map_err(|e| format!("{} cannot do that: {e}", names.get(seat)))?;
            if !step_resolved(game) {
                continue;
            }
            if game.last_log().iter().any(|e| matches!(e.played, Played::ChoseSide(_))) {
                *names = SeatNames::new(game, human);
            }
            let mut text = String::new();
            if human.is_some() {
                say!(text);
            }
            log_text(&mut text, catalog, game.last_log(), names, game.turns());
            if game.age() != age || game.is_over() {
                edifice_age_text(&mut text, game, age, names);
                military_text(&mut text, game, age, &tokens, names);
                armada::age_end_text(&mut text, game, age, names);
                age = game.age();
                tokens = game.cities().iter().map(|c| c.tokens).collect();
            }
            emit(out, &text)?;
        }
    }
    notify_game_over(game, &mut bots);
    for (seat, bot) in bots.iter().enumerate() {
        let faults = bot.faults();
        if faults.total() > 0 {
            crate::output::warn(&format!(
                "wonders: bot `{}` at seat {seat}: {}",
                bot.name(),
                faults.describe()
            ));
        }
    }
    Ok(())
}

/// Whether the last action resolved a step: nobody is left holding a choice. (In a simultaneous
/// step the seats that have chosen wait for the others; one-seat steps resolve at once.)
pub(crate) fn step_resolved(game: &Game) -> bool {
    !(0..game.players()).any(|s| game.has_chosen(s))
}

/// A seed from the clock, for games started without `--seed`.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // Keep it short enough to type.
    (now.as_nanos() % 1_000_000_000) as u64
}

/// How cities are named in the output: `you (seat 0, Rhodes A)` for the human's, `seat 2 (Babylon
/// B)` for a bot's, `the Free City (Giza A)` in the 2-player variant. Indexed by city, which is
/// also the seat for every city but the Free City.
pub(crate) struct SeatNames(Vec<String>);

impl SeatNames {
    /// The number of cities named.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Names for the cities of `game`; `human` is the human's seat, if any.
    pub(crate) fn new(game: &Game, human: Option<usize>) -> SeatNames {
        let catalog = game.catalog();
        SeatNames(
            game.cities()
                .iter()
                .enumerate()
                .map(|(index, c)| {
                    let name = &catalog.wonder(c.wonder).name;
                    // Before the 2nd edition's side choice, the side is not known yet.
                    let board = if game.phase() == Phase::ChooseSide {
                        name.clone()
                    } else {
                        format!("{name} {}", side_label(catalog, c))
                    };
                    if game.free_city() == Some(index) {
                        format!("the Free City ({board})")
                    } else if human == Some(index) {
                        format!("you (seat {index}, {board})")
                    } else {
                        format!("seat {index} ({board})")
                    }
                })
                .collect(),
        )
    }

    /// The name of the city at `index`.
    pub(crate) fn get(&self, index: usize) -> &str {
        self.0.get(index).map_or("?", |s| s.as_str())
    }
}

/// `A` or `B` (or `Day`/`Night`).
fn side_label(catalog: &Catalog, city: &City) -> &'static str {
    city.side.label(catalog.edition)
}

/// What a construction costs, e.g. `free (chain)`, `pay 1 right + 2 left`, `1 coin to bank`.
pub(crate) fn payment_text(pay: &Payment) -> String {
    match pay.free {
        Some(FreeBy::Chain) => return "free (chain)".into(),
        Some(FreeBy::FreeBuild) => return "free (Olympia's free build of the Age)".into(),
        Some(FreeBy::FirstOfColour) => return "free (first of its colour)".into(),
        Some(FreeBy::FirstOfAge) => return "free (first card of the Age)".into(),
        Some(FreeBy::LastOfAge) => return "free (last card of the Age)".into(),
        None => {}
    }
    let mut parts = Vec::new();
    match (pay.right, pay.left) {
        (0, 0) => {}
        (r, 0) => parts.push(format!("pay {r} right")),
        (0, l) => parts.push(format!("pay {l} left")),
        (r, l) => parts.push(format!("pay {r} right + {l} left")),
    }
    // Armada's trading zones: coins to the 2nd players (1 per unit).
    if pay.second.left() > 0 {
        parts.push(format!("{} to the 2nd left", pay.second.left()));
    }
    if pay.second.right() > 0 {
        parts.push(format!("{} to the 2nd right", pay.second.right()));
    }
    if pay.bank > 0 {
        parts.push(format!("{} coin{} to bank", pay.bank, plural(pay.bank as u16)));
    }
    if parts.is_empty() { "free".into() } else { parts.join(", ") }
}

fn plural(n: u16) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What a production gives, e.g. `WWS + W/C + G/L/P`; `nothing` when empty.
fn production_text(p: &Production) -> String {
    let mut parts = Vec::new();
    if !p.fixed.is_empty() {
        parts.push(p.fixed.to_string());
    }
    for set in p.choices() {
        parts.push(set.iter().map(|r| r.letter().to_string()).collect::<Vec<_>>().join("/"));
    }
    if parts.is_empty() { "nothing".into() } else { parts.join(" + ") }
}

/// The city's cards by colour, e.g. `brown: Lumber Yard, Ore Vein | blue: Baths`.
fn cards_by_colour(catalog: &Catalog, city: &City) -> String {
    let parts: Vec<String> = Colour::ALL
        .iter()
        .filter_map(|&colour| {
            let names: Vec<&str> = city
                .built
                .iter()
                .map(|c| catalog.card(c))
                .filter(|d| d.colour == colour)
                .map(|d| d.name.as_str())
                .collect();
            (!names.is_empty()).then(|| format!("{colour}: {}", names.join(", ")))
        })
        .collect();
    if parts.is_empty() { "no cards yet".into() } else { parts.join(" | ") }
}

/// `2/3 built, next stage: WW → 3 VP` or `3/3 built (complete)`.
fn wonder_text(catalog: &Catalog, city: &City) -> String {
    let stages = catalog.wonder(city.wonder).stages(city.side);
    let built = city.stages as usize;
    match stages.get(built) {
        Some(next) => {
            let effects: Vec<String> = next.effects.iter().map(|e| e.to_string()).collect();
            let cost = if next.cost.is_empty() { "free".to_string() } else { next.cost.to_string() };
            format!("{built}/{} stages built, next stage costs {cost} → {}", stages.len(), effects.join(", "))
        }
        None => format!("{built}/{} stages built (complete)", stages.len()),
    }
}

/// Coins, shields, military and science of a city on one line.
fn status_text(city: &City) -> String {
    let [compass, gear, tablet] = city.science;
    let mut s = format!(
        "{} coin{}, {} shield{}, military {:+}",
        city.coins,
        plural(city.coins),
        city.shields,
        plural(city.shields as u16),
        city.tokens.points()
    );
    if compass + gear + tablet + city.science_wild > 0 {
        let _ = write!(s, ", science: {compass} compass {gear} gear {tablet} tablet");
        if city.science_wild > 0 {
            let _ = write!(s, " + {} wild", city.science_wild);
        }
    }
    s
}

/// The resources `buyer` buys for 1 coin on `side` (0 left, 1 right), e.g. ` (1 coin for W/S/C/O)`.
fn discount_text(buyer: &City, side: usize) -> String {
    let cheap: Vec<String> = Resource::ALL
        .iter()
        .filter(|&&r| buyer.price(side, r) == 1)
        .map(|r| r.letter().to_string())
        .collect();
    if cheap.is_empty() { String::new() } else { format!(" (you pay 1 coin for {})", cheap.join("/")) }
}

/// The situation of the human's seat: the step, the city the action is for, its neighbours.
fn situation_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames) {
    let seat = view.seat as usize;
    let acting = view.acting_city as usize;
    let n = view.cities.len();
    let Some(me) = view.cities.get(acting) else {
        return;
    };
    say!(text);
    let step = match view.phase {
        Phase::ChooseSide => "choose the side of your wonder board".to_string(),
        Phase::PlayLastCard { .. } => "Babylon: play the last card of the Age".to_string(),
        Phase::BuildFromDiscard { .. } => {
            "Halicarnassus: build a card from the discard pile for free".to_string()
        }
        Phase::EdificeDiscard { .. } => "the great project failed: discard a card of your city".to_string(),
        Phase::Explore { .. } => "Armada: keep one island of your exploration".to_string(),
        Phase::IslandMoves { .. } => "Armada: choose the ships of your island's free moves".to_string(),
        Phase::NavalOptOut { .. } => "Armada: Forgotten Port — take part in the naval conflict?".to_string(),
        _ => format!("turn {} (cards pass {})", view.turn, if view.age == 2 { "right" } else { "left" }),
    };
    say!(text, "=== Age {}, {step} — {} ===", roman(view.age), names.get(seat));
    if view.phase == Phase::ChooseSide {
        return;
    }
    let who = if acting == seat { "You".to_string() } else { format!("Playing for {}", names.get(acting)) };
    say!(text, "{who}: {}", status_text(me));
    let w = catalog.wonder(me.wonder);
    say!(text, "  wonder: {} (side {}), {}", w.name, side_label(catalog, me), wonder_text(catalog, me));
    say!(text, "  makes: {}", production_text(&me.production));
    say!(text, "  city: {}", cards_by_colour(catalog, me));
    if let Some(line) = edifice_city_text(catalog, view, me) {
        say!(text, "  {line}");
    }
    armada::shipyard_text(text, view, acting, true);
    projects_text(text, catalog, view, names);
    let mate = view.teams.then(|| wonders_core::teams::teammate(seat));
    for (side, label, other) in [(0, "Left", (acting + 1) % n), (1, "Right", (acting + n - 1) % n)] {
        let Some(c) = view.cities.get(other) else {
            continue;
        };
        let stages = c.stage_count(catalog);
        say!(
            text,
            "{label} neighbour{}, {}: {}, wonder {}/{stages} stages",
            if mate == Some(other) { " (your teammate)" } else { "" },
            names.get(other),
            status_text(c),
            c.stages
        );
        say!(text, "  sells: {}{}", production_text(&c.for_sale), discount_text(me, side));
        say!(text, "  city: {}", cards_by_colour(catalog, c));
        if let Some(line) = edifice_city_text(catalog, view, c) {
            say!(text, "  {line}");
        }
        armada::shipyard_text(text, view, other, false);
    }
    teammate_text(text, catalog, view, names);
}

/// Team variant: the teammate's hand (teammates may show their hands, 000 團隊遊戲規則).
fn teammate_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames) {
    if let Some(hand) = &view.teammate_hand {
        let mate = wonders_core::teams::teammate(view.seat as usize);
        let cards: Vec<String> = hand.iter().map(|&c| card_text(catalog, c)).collect();
        say!(text, "Your teammate {}'s hand: {}", names.get(mate), cards.join("; "));
    }
}

/// Edifice: a city's pawns (with what became of each project) and debt tokens, e.g.
/// `projects: pawns I (completed), III; debt tokens II (-3 VP)`; `None` without the expansion.
fn edifice_city_text(catalog: &Catalog, view: &View, city: &City) -> Option<String> {
    let (state, data) = (view.edifice.as_ref()?, catalog.edifice.as_deref()?);
    let mut pawns = Vec::new();
    for a in 0..3 {
        for _ in 0..city.edifice.pawns[a] {
            let outcome = match state.outcome[a] {
                Outcome::Completed => " (completed)",
                Outcome::Failed => " (failed)",
                Outcome::Open => "",
            };
            pawns.push(format!("{}{outcome}", roman(a as u8 + 1)));
        }
    }
    let mut s = format!(
        "projects: {}",
        if pawns.is_empty() { "no pawn".into() } else { format!("pawns {}", pawns.join(", ")) }
    );
    let debt: Vec<String> = (0..3)
        .flat_map(|a| std::iter::repeat_n(a as u8 + 1, city.edifice.debt[a] as usize))
        .map(|age| format!("{} (-{} VP)", roman(age), data.debt_points(age)))
        .collect();
    if !debt.is_empty() {
        let _ = write!(s, "; debt tokens {}", debt.join(", "));
    }
    Some(s)
}

/// Edifice: the three great projects, the current one marked `>>`, with pawns left, holders,
/// cost, reward and penalty, each marked `(provisional)` when no printed source confirms it.
pub(crate) fn projects_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames) {
    let (Some(state), Some(data)) = (view.edifice.as_ref(), catalog.edifice.as_deref()) else {
        return;
    };
    let mark = |provisional: bool| if provisional { " (provisional)" } else { "" };
    say!(text, "  great projects:");
    for a in 0..3 {
        let p = data.project(state.projects[a]);
        let current = view.age as usize == a + 1 && state.outcome[a] == Outcome::Open;
        let status = match state.outcome[a] {
            Outcome::Open => format!("{} pawn{} left", state.left[a], plural(state.left[a] as u16)),
            Outcome::Completed => "COMPLETED".into(),
            Outcome::Failed => "FAILED".into(),
        };
        let holders: Vec<&str> = (0..view.cities.len())
            .filter(|&c| view.cities[c].edifice.pawns[a] > 0)
            .map(|c| names.get(c))
            .collect();
        let zh = if p.zh.is_empty() { String::new() } else { format!(" {}", p.zh) };
        say!(
            text,
            "  {} Age {} {}{zh}: {status}; holders: {}",
            if current { ">>" } else { "  " },
            roman(a as u8 + 1),
            p.name,
            if holders.is_empty() { "none".to_string() } else { holders.join(", ") }
        );
        say!(
            text,
            "       take part: {}{}; reward: {}{}; penalty: {}{}",
            p.cost_text(),
            mark(p.cost_status.provisional()),
            p.reward_text(),
            mark(p.reward_status.provisional()),
            p.penalty,
            mark(p.penalty_status.provisional())
        );
    }
    let me = &view.cities[view.acting_city as usize];
    if me.edifice.debt.iter().any(|&d| d > 0) {
        let debt: i32 =
            (0..3).map(|a| me.edifice.debt[a] as i32 * data.debt_points(a as u8 + 1) as i32).sum();
        say!(text, "  your debt tokens: {:?} by Age ({debt:+} VP)", me.edifice.debt.map(|d| d as i32));
    }
}

/// `I`, `II` or `III`.
pub(crate) fn roman(age: u8) -> &'static str {
    match age {
        1 => "I",
        2 => "II",
        3 => "III",
        _ => "?",
    }
}

/// A card's description with its chains both ways: `Baths [blue] cost S → 3 VP; makes free
/// later: Aqueduct`.
fn card_text(catalog: &Catalog, card: CardId) -> String {
    let d = catalog.card(card);
    // An Armada card's effects (its base-game ones included) come from the Armada data.
    let effect = match (catalog.armada_card(card), catalog.armada.as_deref()) {
        (Some(a), Some(data)) => {
            let def = data.card(a);
            let texts: Vec<String> = def.effects.iter().map(ToString::to_string).collect();
            let mark = if def.provisional() { " (provisional)" } else { "" };
            format!("{}{mark}", texts.join(", "))
        }
        _ => d.effect_text(),
    };
    let mut s = format!("{} [{}] cost {} → {effect}", d.name, d.colour, d.cost_text());
    if !d.chain_from.is_empty() {
        let _ = write!(s, "; free with {}", d.chain_from.join(" or "));
    }
    let mut later: Vec<&str> =
        catalog.cards.iter().filter(|c| c.chain_from.contains(&d.name)).map(|c| c.name.as_str()).collect();
    later.dedup();
    if !later.is_empty() {
        let _ = write!(s, "; makes free later: {}", later.join(", "));
    }
    s
}

/// Shows the human's choices and reads one; returns the chosen action.
fn ask(
    catalog: &Catalog,
    view: &View,
    legal: &[Action],
    names: &SeatNames,
    (input, echo): (&mut dyn BufRead, bool),
    out: &mut dyn Write,
) -> Result<Action, String> {
    let mut text = String::new();
    situation_text(&mut text, catalog, view, names);
    let choices = choice_list(&mut text, catalog, view, legal, names);
    emit(out, &text)?;
    if choices.is_empty() {
        return Err("no legal action to choose from (this is a bug in the engine)".into());
    }
    let count = choices.len();
    loop {
        emit(out, &format!("Your choice (1-{count}, q to quit): "))?;
        let mut answer = String::new();
        let read = input.read_line(&mut answer).map_err(|e| format!("reading standard input: {e}"))?;
        if read == 0 {
            return Err(format!(
                "standard input ended at Age {}, turn {} while {} had to choose: the game is abandoned",
                roman(view.age),
                view.turn,
                names.get(view.seat as usize)
            ));
        }
        let answer = answer.trim();
        if echo {
            emit(out, &format!("{answer}\n"))?;
        }
        if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
            return Err("game abandoned at your request".into());
        }
        match answer.parse::<usize>() {
            Ok(k) if (1..=count).contains(&k) => return Ok(choices[k - 1]),
            Ok(k) => emit(out, &format!("{k} is out of range: type a number from 1 to {count}.\n"))?,
            Err(_) if answer.is_empty() => emit(out, &format!("Type a number from 1 to {count}.\n"))?,
            Err(_) => emit(out, &format!("`{answer}` is not a number: type a number from 1 to {count}.\n"))?,
        }
    }
}

/// Writes the numbered legal actions, grouped by card, and returns them in the order shown.
fn choice_list(
    text: &mut String,
    catalog: &Catalog,
    view: &View,
    legal: &[Action],
    names: &SeatNames,
) -> Vec<Action> {
    let mut shown = Vec::with_capacity(legal.len());
    let Some(me) = view.cities.get(view.acting_city as usize) else {
        shown.extend_from_slice(legal);
        return shown;
    };
    match view.phase {
        Phase::ChooseSide => {
            let w = catalog.wonder(me.wonder);
            say!(text, "Your board: {} ({}), starting resource {}", w.name, w.full_name, w.start.name());
            for a in legal {
                if let Action::ChooseSide { side } = *a {
                    shown.push(*a);
                    say!(text, "  {:>2}  side {}:", shown.len(), side.label(view.edition));
                    for (i, stage) in w.stages(side).iter().enumerate() {
                        let effects: Vec<String> = stage.effects.iter().map(|e| e.to_string()).collect();
                        say!(text, "        stage {}: cost {} → {}", i + 1, stage.cost, effects.join(", "));
                    }
                }
            }
        }
        Phase::Explore { .. } => armada::explore_choices(text, catalog, legal, &mut shown),
        Phase::IslandMoves { .. } => armada::island_moves_choices(text, catalog, legal, &mut shown),
        Phase::NavalOptOut { .. } => armada::opt_out_choices(text, view, legal, names, &mut shown),
        Phase::EdificeDiscard { .. } => {
            say!(text, "The Age's great project failed: choose the card of your city to discard:");
            for a in legal {
                shown.push(*a);
                if let Action::DiscardBuilt { card } = *a {
                    say!(text, "  {:>2}  discard {}", shown.len(), card_text(catalog, card));
                }
            }
        }
        Phase::BuildFromDiscard { .. } => {
            say!(text, "The discard pile ({} cards) — build one for free, or pass:", view.discard_size);
            for a in legal {
                shown.push(*a);
                match *a {
                    Action::BuildDiscarded { card, free_move: None } => {
                        say!(text, "  {:>2}  build {}", shown.len(), card_text(catalog, card))
                    }
                    Action::BuildDiscarded { card, free_move: Some(f) } => say!(
                        text,
                        "  {:>2}  build {}, its free move on the {} ship",
                        shown.len(),
                        card_text(catalog, card),
                        f.name()
                    ),
                    _ => say!(text, "  {:>2}  {}", shown.len(), action_line(a, 0, view.edition)),
                }
            }
        }
        _ => hand_choices(text, catalog, view, me, legal, &mut shown),
    }
    // Anything the grouping missed (it should not happen) is still offered.
    for a in legal {
        if !shown.contains(a) {
            shown.push(*a);
            say!(text, "      {:>2}  {}", shown.len(), action_line(a, me.stages + 1, view.edition));
        }
    }
    shown
}

/// The hand, card by card, each with its numbered legal actions.
fn hand_choices(
    text: &mut String,
    catalog: &Catalog,
    view: &View,
    me: &City,
    legal: &[Action],
    shown: &mut Vec<Action>,
) {
    let stage_no = me.stages + 1;
    if !legal.iter().any(|a| matches!(a, Action::Wonder { .. })) {
        if me.stages >= me.stage_count(catalog) {
            say!(text, "The wonder is complete.");
        } else {
            say!(text, "Wonder stage {stage_no} can't be afforded this turn.");
        }
    }
    if view.acting_city != view.seat {
        say!(text, "Choose for the Free City, from your hand (its rules: a card it can chain must be");
        say!(text, "built free; it discards only when nothing else is possible):");
    } else {
        say!(text, "Your hand:");
    }
    let mut seen: Vec<CardId> = Vec::new();
    for &card in &view.hand {
        if seen.contains(&card) {
            continue;
        }
        seen.push(card);
        let mine = |pred: fn(&Action) -> bool| {
            legal.iter().copied().filter(move |a| a.card() == Some(card) && pred(a))
        };
        if mine(|_| true).next().is_none() {
            continue;
        }
        let copies = view.hand.iter().filter(|&&c| c == card).count();
        let times = if copies > 1 { format!(" — {copies} copies in your hand") } else { String::new() };
        say!(text, "  {}{times}", card_text(catalog, card));
        let builds: Vec<Action> = mine(|a| matches!(a, Action::Build { .. })).collect();
        if builds.is_empty() {
            let why = if me.has_name(catalog, card) { "already have it" } else { "can't afford it" };
            say!(text, "          can't build ({why})");
        }
        let stages = mine(|a| matches!(a, Action::Wonder { .. }));
        let discards = mine(|a| matches!(a, Action::Discard { .. } | Action::DiscardYellow { .. }));
        for a in builds.into_iter().chain(stages).chain(discards) {
            shown.push(a);
            // Armada's naval variants can be long: they wrap within 80 columns.
            let line = format!("      {:>2}  {}", shown.len(), action_line(&a, stage_no, view.edition));
            say!(text, "{}", wrap(&line, armada::WIDTH));
        }
    }
}

/// One action as a choice line: `build: pay 2 left`, `wonder stage 2: free`, `discard: +3 coins`.
fn action_line(a: &Action, stage_no: u8, edition: Edition) -> String {
    match a {
        Action::Build { pay, naval, .. } => {
            let mut what = "build".to_string();
            if let Some(f) = naval.construction() {
                let _ = write!(what, " + naval ({f})");
            }
            if let Some(f) = naval.free_move() {
                let _ = write!(what, " + free move ({f})");
            }
            format!("{what}: {}", payment_text(pay))
        }
        Action::Wonder { pay, extra, .. } => {
            let mut what = format!("wonder stage {stage_no}");
            if extra.alternative() {
                what.push_str(" (second effect)");
            }
            if extra.pawn_age() > 0 {
                let _ = write!(what, " (Age {} pawn)", roman(extra.pawn_age()));
            }
            if extra.take_part() {
                what.push_str(" + take part in the great project");
            }
            if let Some(f) = extra.naval() {
                let _ = write!(what, " + naval ({f})");
            }
            format!("{what}: {}", payment_text(pay))
        }
        Action::DiscardBuilt { .. } => "discard it from your city".into(),
        Action::Discard { .. } => "discard: +3 coins".into(),
        Action::DiscardYellow { .. } => "discard: free move of the yellow ship".into(),
        Action::BuildDiscarded { .. } => "build from the discard pile".into(),
        Action::Pass => "pass (build nothing)".into(),
        Action::ChooseSide { side } => format!("side {}", side.label(edition)),
        Action::ChooseIsland { island, .. } => format!("keep island #{}", island.0),
        Action::StayOutOfNaval { stay_out: true } => "stay out of the naval conflict".into(),
        Action::StayOutOfNaval { stay_out: false } => "take part in the naval conflict".into(),
    }
}

/// The log of one resolved step: a heading and what every city did.
///
/// `turns` is the number of turns of an Age ([`Game::turns`]): Babylon's last card is logged as
/// turn `turns + 1`. Armada's Age-end conflicts are left to the Age-end block
/// ([`armada::age_end_text`]).
pub(crate) fn log_text(text: &mut String, catalog: &Catalog, log: &[LogEntry], names: &SeatNames, turns: u8) {
    let shown = |e: &&LogEntry| !matches!(e.played, Played::Armada(ev) if !armada::in_step_log(ev));
    let Some(first) = log.iter().find(shown) else {
        return;
    };
    let heading = match (first.turn, first.played) {
        (_, Played::ChoseSide(_)) => "Wonder sides".to_string(),
        (_, Played::BuiltDiscarded(_) | Played::Passed) => {
            format!("Age {}, Halicarnassus", roman(first.age))
        }
        (_, Played::Armada(_)) if armada::heading(first).is_some() => {
            armada::heading(first).unwrap_or_default()
        }
        (t, _) if t == turns + 1 => format!("Age {}, Babylon's last card", roman(first.age)),
        (t, _) => format!("Age {}, turn {t}", roman(first.age)),
    };
    say!(text, "-- {heading}:");
    let n = names.len();
    for e in log.iter().filter(shown) {
        // Coins the neighbours paid this city for its resources this step.
        let trade: u16 = log
            .iter()
            .map(|o| {
                let (l, r) = ((o.seat as usize + 1) % n, (o.seat as usize + n - 1) % n);
                let (l2, r2) = ((o.seat as usize + 2) % n, (o.seat as usize + 2 * n - 2) % n);
                (if l == e.seat as usize { o.pay.left as u16 } else { 0 })
                    + (if r == e.seat as usize { o.pay.right as u16 } else { 0 })
                    + (if l2 == e.seat as usize { o.pay.second.left() as u16 } else { 0 })
                    + (if r2 == e.seat as usize { o.pay.second.right() as u16 } else { 0 })
            })
            .sum();
        let line = format!("   {}", entry_text(catalog, e, names, trade));
        if matches!(e.played, Played::Armada(_)) {
            // Armada's lines (ship moves, islands, losses) wrap within 80 columns.
            say!(text, "{}", wrap(&line, armada::WIDTH));
        } else {
            say!(text, "{line}");
        }
    }
}

/// One log entry: `seat 1 (Giza A) built Stockade (pay 2 left); +3 coins (discard), +2 coins (trade)`;
/// `trade` is what the neighbours paid this city in the same step.
pub(crate) fn entry_text(catalog: &Catalog, e: &LogEntry, names: &SeatNames, trade: u16) -> String {
    let who = names.get(e.seat as usize);
    let paid = |what: String| -> String {
        if e.pay.free.is_some() || e.pay.total() > 0 {
            format!("{what} ({})", payment_text(&e.pay))
        } else {
            what
        }
    };
    let mut s = match e.played {
        Played::ChoseSide(side) => format!("{who} chose side {}", side.label(catalog.edition)),
        Played::Built(c) => paid(format!("{who} built {}", catalog.card(c).name)),
        Played::Stage(k) => paid(format!("{who} built wonder stage {k}")),
        Played::Discarded => format!("{who} discarded a card"),
        Played::BuiltDiscarded(c) => format!("{who} built {} from the discard pile", catalog.card(c).name),
        Played::Passed => format!("{who} built nothing from the discard pile"),
        Played::Edifice(ev) => {
            let project = format!("the Age {} great project", roman(ev.project_age(e.age)));
            match ev {
                EdificeEvent::TookPart => format!("{who} took part in {project} (took a pawn)"),
                EdificeEvent::UrPawn(a) => format!("{who} took an Age {} pawn from the box (Ur)", roman(a)),
                EdificeEvent::Rewarded(a) if a != e.age => {
                    format!("{who} joins {project}, completed, with an Ur pawn and gains its reward")
                }
                EdificeEvent::Rewarded(_) => format!("{project} is COMPLETED: {who} gains its reward"),
                EdificeEvent::Spared => format!("{project} FAILED: {who} holds a pawn and suffers nothing"),
                EdificeEvent::Paid => format!("{project} FAILED: {who} pays the penalty"),
                EdificeEvent::Discarded(c) => {
                    format!("{project} FAILED: {who} discards {} for the penalty", catalog.card(c).name)
                }
                EdificeEvent::Debt => {
                    format!("{project} FAILED: {who} cannot pay the penalty and takes a debt token")
                }
            }
        }
        Played::Armada(ev) => armada::event_text(catalog, e, ev, names),
    };
    let trade = trade.min(e.income);
    let own = e.income - trade;
    let mut parts = Vec::new();
    if own > 0 {
        let why = if e.played == Played::Discarded { "discard" } else { "from the card or stage" };
        parts.push(format!("+{own} coin{} ({why})", plural(own)));
    }
    if trade > 0 {
        parts.push(format!("+{trade} coin{} (trade: paid by neighbours)", plural(trade)));
    }
    if !parts.is_empty() {
        let _ = write!(s, "; {}", parts.join(", "));
    }
    s
}

/// Edifice, at the end of `age`: what became of that Age's great project — completed (on which
/// turn, the holders rewarded) or failed (its penalty, and for each city whether it held a pawn,
/// paid, discarded a card or took the Age's debt token); nothing without the expansion.
pub(crate) fn edifice_age_text(text: &mut String, game: &Game, age: u8, names: &SeatNames) {
    let catalog = game.catalog();
    let (Some(state), Some(data)) = (game.edifice(), catalog.edifice.as_deref()) else {
        return;
    };
    let Some(a) = (age as usize).checked_sub(1).filter(|&a| a < 3) else {
        return;
    };
    let p = data.project(state.projects[a]);
    let events = game.history().iter().filter(|e| e.age == age).filter_map(|e| match e.played {
        Played::Edifice(ev) if !matches!(ev, EdificeEvent::TookPart | EdificeEvent::UrPawn(_)) => {
            Some((e, ev))
        }
        _ => None,
    });
    match state.outcome[a] {
        Outcome::Completed => {
            let rewarded: Vec<(&LogEntry, EdificeEvent)> =
                events.filter(|(_, ev)| *ev == EdificeEvent::Rewarded(age)).collect();
            let turn = rewarded.first().map_or(String::new(), |(e, _)| format!(" on turn {}", e.turn));
            say!(text, "== End of Age {}: great project {} COMPLETED{turn} ==", roman(age), p.name);
            say!(text, "   reward: {}", p.reward_text());
            for (e, _) in rewarded {
                let coins = if e.income > 0 { format!(" (+{} coins)", e.income) } else { String::new() };
                say!(text, "   {}: rewarded{coins}", names.get(e.seat as usize));
            }
        }
        Outcome::Failed => {
            say!(text, "== End of Age {}: great project {} FAILED ==", roman(age), p.name);
            say!(text, "   penalty for every city without a pawn: {}", p.penalty);
            for (e, ev) in events {
                let what = match ev {
                    EdificeEvent::Spared => "held a pawn: no penalty".to_string(),
                    EdificeEvent::Paid => format!("paid: {}", p.penalty),
                    EdificeEvent::Discarded(c) => format!("discarded {}", catalog.card(c).name),
                    EdificeEvent::Debt => {
                        format!("could not pay: took a debt token (-{} VP)", data.debt_points(age))
                    }
                    _ => continue,
                };
                say!(text, "   {}: {what}", names.get(e.seat as usize));
            }
        }
        Outcome::Open => {}
    }
}

/// The military conflicts at the end of `age`: each city's shields and the tokens it got.
pub(crate) fn military_text(
    text: &mut String,
    game: &Game,
    age: u8,
    before: &[MilitaryTokens],
    names: &SeatNames,
) {
    say!(text, "== End of Age {}: military conflicts ==", roman(age));
    for (index, city) in game.cities().iter().enumerate() {
        let old = before.get(index).copied().unwrap_or_default();
        let t = city.tokens;
        let won = (t.plus1 + t.plus3 + t.plus5).saturating_sub(old.plus1 + old.plus3 + old.plus5);
        let lost = t.minus1.saturating_sub(old.minus1);
        say!(
            text,
            "   {}: {} shield{}, {won} victor{}, {lost} defeat{}; military {:+}",
            names.get(index),
            city.shields,
            plural(city.shields as u16),
            if won == 1 { "y" } else { "ies" },
            plural(lost as u16),
            t.points()
        );
    }
}

/// The score sheet, within 80 columns for 7 cities: a key naming each city `#0`, `#1`, …, then one
/// row per category (the `edifice` row only in a game with the expansion), the coins (the
/// tie-break) and the rank, one column per city (the Free City, which is no player, has no rank).
pub(crate) fn score_sheet(text: &mut String, game: &Game, names: &SeatNames) {
    let scores = game.scores();
    let rank = game.ranks();
    for index in 0..scores.len() {
        say!(text, "  #{index} {}", names.get(index));
    }
    let mut head = format!("  {:<10}", "");
    for index in 0..scores.len() {
        let _ = write!(head, " {:>6}", format!("#{index}"));
    }
    say!(text, "{}", head.trim_end());
    let edifice = game.edifice().is_some();
    let armada = game.catalog().armada.is_some();
    for k in Score::shown(armada) {
        let category = Score::CATEGORIES[k];
        if category == "edifice" && !edifice {
            continue;
        }
        let mut row = format!("  {category:<10}");
        for s in &scores {
            let _ = write!(row, " {:>6}", s.values()[k]);
        }
        say!(text, "{row}");
    }
    let mut coins = format!("  {:<10}", "coins");
    let mut place = format!("  {:<10}", "rank");
    for index in 0..scores.len() {
        let _ = write!(coins, " {:>6}", game.cities().get(index).map_or(0, |c| c.coins));
        let _ = write!(place, " {:>6}", rank.get(index).map_or("-".to_string(), |r| r.to_string()));
    }
    say!(text, "{coins}");
    say!(text, "{place}");
    if game.teams() {
        // Team variant: the sum of both players' totals; ties by summed coins (wonders_core::teams).
        let keyed: Vec<(i32, u16)> =
            (0..game.players()).map(|s| (scores[s].total, game.city(s).coins)).collect();
        for t in wonders_core::teams::results(&keyed) {
            let [a, b] = t.players.map(usize::from);
            say!(
                text,
                "  team {} + {}: {} points, {} coins, rank {}",
                names.get(a),
                names.get(b),
                t.total,
                t.coins,
                t.rank
            );
        }
    }
    let winners: Vec<&str> = (0..rank.len()).filter(|&s| rank[s] == 1).map(|s| names.get(s)).collect();
    match (game.is_over(), winners.as_slice()) {
        (false, leaders) => say!(text, "Leading so far: {}", leaders.join(", ")),
        (true, [one]) => say!(text, "Winner: {one}"),
        (true, many) => say!(text, "Shared win: {}", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn args(seat: usize, auto: bool) -> PlayArgs {
        PlayArgs {
            players: 3,
            edition: Edition::First,
            seat,
            seed: Some(11),
            record: None,
            auto,
            bots: "random".into(),
            exp: ExpansionArgs::default(),
        }
    }

    /// A project's reward reads as its completion, except an Ur pawn's reward for an earlier
    /// Age's completed project, logged when it happens (Age II) and naming that project (Age I).
    #[test]
    fn an_ur_pawns_late_reward_names_the_earlier_project() {
        let catalog = Catalog::extended(Edition::First);
        let game =
            Game::new(&Setup { expansions: wonders_core::Expansions::EDIFICE, ..Setup::new(3, 4) }).unwrap();
        let names = SeatNames::new(&game, None);
        let entry = |age, ev| LogEntry {
            age,
            turn: 2,
            seat: 1,
            played: Played::Edifice(ev),
            pay: wonders_core::Payment::default(),
            income: 4,
        };
        let who = names.get(1);
        assert_eq!(
            entry_text(catalog, &entry(1, EdificeEvent::Rewarded(1)), &names, 0),
            format!(
                "the Age I great project is COMPLETED: {who} gains its reward; +4 coins (from the card or stage)"
            )
        );
        assert_eq!(
            entry_text(catalog, &entry(2, EdificeEvent::Rewarded(1)), &names, 0),
            format!(
                "{who} joins the Age I great project, completed, with an Ur pawn and gains its reward; +4 coins (from the card or stage)"
            )
        );
    }

    #[test]
    fn an_armada_card_says_what_it_does() {
        // Seamen's Academy's only effect is Armada's: the top level-1 island (000 海員學院).
        let catalog = Catalog::with_builtin_armada(Edition::First, false);
        let text = card_text(catalog, catalog.find_card("Seamen's Academy").unwrap());
        assert!(text.contains("→ top level-1 island into play (provisional)"), "{text}");
        // A base card reads as before.
        let baths = catalog.find_card("Baths").unwrap();
        assert_eq!(card_text(catalog, baths), "Baths [blue] cost S → 3 VP; makes free later: Aqueduct");
    }

    #[test]
    fn an_armada_game_shows_every_shipyard() {
        let mut a = args(0, false);
        a.exp.expansions = wonders_core::Expansions::ARMADA;
        let mut out = Vec::new();
        play(&a, &mut Cursor::new("1\n".repeat(60)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let first = &text[..text.find("Your hand:").unwrap()];
        let yards: Vec<&str> = first.lines().filter(|l| l.starts_with("  shipyard ")).collect();
        assert_eq!(yards.len(), 3, "the human's and both neighbours': {first}");
        // Every ship on its start space (000 遊戲準備 6), and exactly one fleet per board carries
        // the wonder symbol `*`: the human's has one line per ship with the next step's cost
        // and what that step gives, each neighbour's one line.
        assert!(yards[0].ends_with("naval strength 0, trade level 0"), "{}", yards[0]);
        let ships: Vec<&str> = first.lines().filter(|l| l.starts_with("    ")).collect();
        assert_eq!(ships.len(), 4, "{first}");
        assert_eq!(ships.iter().map(|l| l.matches('*').count()).sum::<usize>(), 1);
        assert!(ships.iter().all(|l| l.contains(" 0/6  next step costs ")), "{ships:?}");
        for y in &yards[1..] {
            assert!(y.ends_with("naval 0, trade 0"), "{y}");
            assert_eq!(y.matches('*').count(), 1, "{y}");
            assert_eq!(y.matches(" 0/6").count(), 4, "{y}");
        }
        // The score sheet has Armada's three categories.
        for row in ["  naval ", "  fleet ", "  islands "] {
            assert!(text.contains(row), "{row}");
        }
    }

    #[test]
    fn eight_players_play_with_armada_in_teams() {
        // 8 players only with Armada (000 8人遊戲規則), here in four teams (團隊遊戲規則).
        let mut a = args(0, true);
        a.players = 8;
        a.exp.expansions = wonders_core::Expansions::ARMADA;
        a.exp.teams = true;
        let mut out = Vec::new();
        play(&a, &mut Cursor::new(""), false, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("#7 seat 7"), "{text}");
        assert_eq!(text.matches("  team seat ").count(), 4, "{text}");
        a.exp.expansions = wonders_core::Expansions::NONE;
        let err = play(&a, &mut Cursor::new(""), false, &mut Vec::new()).unwrap_err();
        assert!(err.contains("Armada"), "{err}");
    }

    #[test]
    fn an_edifice_game_shows_the_projects_and_their_log() {
        // The human answers 1 to everything: the projects are shown, marked provisional, and the
        // log tells what became of them.
        let mut a = args(0, false);
        a.exp.expansions = wonders_core::Expansions::EDIFICE;
        a.bots = "heuristic".into();
        let answers = "1\n".repeat(40);
        let mut out = Vec::new();
        play(&a, &mut Cursor::new(answers), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("with edifice"), "{text}");
        assert!(text.contains("great projects:") && text.contains(">> Age I"), "{text}");
        assert!(text.contains("(provisional)"));
        assert!(text.contains("COMPLETED") || text.contains("FAILED"));
        assert!(text.contains("edifice"), "the score sheet has the category");
        // The human's city and both neighbours say which pawns and debt tokens they hold.
        assert!(text.matches("  projects: ").count() >= 3, "{text}");
    }

    #[test]
    fn the_score_sheet_fits_80_columns_with_seven_cities() {
        // 7 players with Edifice: a key of the cities, a row per category, coins and rank, each
        // line within 80 columns; the totals row is the game's totals. Without the expansion
        // there is no edifice row.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seven.json");
        for edifice in [true, false] {
            let mut a = args(0, true);
            a.players = 7;
            a.bots = "heuristic".into();
            a.record = Some(path.clone());
            if edifice {
                a.exp.expansions = wonders_core::Expansions::EDIFICE;
            }
            let mut out = Vec::new();
            play(&a, &mut Cursor::new(""), false, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let sheet = &text[text.find("Final scores:").unwrap()..text.find("The game record").unwrap()];
            for line in sheet.lines() {
                assert!(line.chars().count() <= 80, "over 80 columns: {line}");
            }
            let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let totals: Vec<String> =
                record.scores.as_ref().unwrap().iter().map(|s| s.total.to_string()).collect();
            let row = sheet.lines().find(|l| l.starts_with("  total ")).unwrap();
            assert_eq!(row.split_whitespace().skip(1).collect::<Vec<_>>(), totals, "{sheet}");
            assert!(sheet.contains("  #6 seat 6 ("), "{sheet}");
            assert_eq!(sheet.lines().any(|l| l.starts_with("  edifice ")), edifice, "{sheet}");
        }
    }

    #[test]
    fn each_age_end_tells_what_became_of_its_project() {
        // A whole Edifice game of bots, with its record: the Age-end block of each Age names
        // the project and its outcome as the game holds them, with one line per rewarded holder
        // (completed) or per city (failed: spared, paid, discarded or in debt).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("edifice.json");
        for seed in [3, 8] {
            let mut a = args(0, true);
            a.seed = Some(seed);
            a.exp.expansions = wonders_core::Expansions::EDIFICE;
            a.bots = "heuristic".into();
            a.record = Some(path.clone());
            let mut out = Vec::new();
            play(&a, &mut Cursor::new(""), false, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let record: Record = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let game = record.replay().unwrap();
            let data = game.catalog().edifice.as_deref().unwrap();
            let state = game.edifice().unwrap();
            for age in 1..=3u8 {
                let a = age as usize - 1;
                let name = &data.project(state.projects[a]).name;
                let events: Vec<EdificeEvent> = game
                    .history()
                    .iter()
                    .filter(|e| e.age == age)
                    .filter_map(|e| match e.played {
                        Played::Edifice(ev)
                            if !matches!(ev, EdificeEvent::TookPart | EdificeEvent::UrPawn(_)) =>
                        {
                            Some(ev)
                        }
                        _ => None,
                    })
                    .collect();
                let (word, lines) = match state.outcome[a] {
                    Outcome::Completed => ("COMPLETED", 1 + events.len()),
                    Outcome::Failed => ("FAILED", 1 + events.len()),
                    Outcome::Open => panic!("every project is decided at its Age's end"),
                };
                let head = format!("== End of Age {}: great project {name} {word}", roman(age));
                let at = text.find(&head).unwrap_or_else(|| panic!("{head} missing:\n{text}"));
                let block: Vec<&str> =
                    text[at..].lines().skip(1).take_while(|l| l.starts_with("   ")).collect();
                // Its lines come before the military conflicts' heading.
                assert_eq!(block.len(), lines, "{head}: {block:?}");
                if state.outcome[a] == Outcome::Failed {
                    assert_eq!(events.len(), 3, "every city has its line: {block:?}");
                    let debts = events.iter().filter(|e| **e == EdificeEvent::Debt).count();
                    let debt_points = format!("took a debt token (-{} VP)", data.debt_points(age));
                    assert_eq!(block.iter().filter(|l| l.contains(&debt_points)).count(), debts);
                }
                for l in &block {
                    assert!(l.chars().count() <= 80, "over 80 columns: {l}");
                }
            }
        }
    }

    #[test]
    fn payments_read_like_the_table() {
        let p = |left, right, bank| Payment::paid(left, right, bank);
        assert_eq!(payment_text(&Payment::free(FreeBy::Chain)), "free (chain)");
        assert_eq!(payment_text(&p(0, 0, 0)), "free");
        assert_eq!(payment_text(&p(2, 0, 0)), "pay 2 left");
        assert_eq!(payment_text(&p(2, 1, 0)), "pay 1 right + 2 left");
        assert_eq!(payment_text(&p(0, 0, 1)), "1 coin to bank");
        assert_eq!(payment_text(&p(0, 2, 3)), "pay 2 right, 3 coins to bank");
        // Armada's trading zones (armada.md §5): 2 units from the 2nd left, 1 from the 2nd right.
        let second = Payment { second: wonders_core::SecondPay::new(2, 1), ..p(0, 2, 0) };
        assert_eq!(payment_text(&second), "pay 2 right, 2 to the 2nd left, 1 to the 2nd right");
    }

    #[test]
    fn a_scripted_game_reaches_the_score_sheet() {
        // Always the last choice (a discard, or a pass): legal in every step.
        let mut input = Cursor::new("abc\n0\n99\n\n".to_string() + &"1\n".repeat(200));
        let mut out = Vec::new();
        play(&args(1, false), &mut input, true, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("`abc` is not a number"));
        assert!(out.contains("0 is out of range"));
        assert!(out.contains("99 is out of range"));
        assert!(out.contains("Final scores:"));
        assert!(out.contains("Your hand:"));
    }

    #[test]
    fn the_record_file_is_untouched_until_the_game_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        std::fs::write(&path, "keep").unwrap();
        // Checking the path before the game changes nothing.
        check_record_path(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep");
        let missing = dir.path().join("no/such/dir/game.json");
        assert!(check_record_path(&missing).unwrap_err().contains("no directory"));
        assert!(!missing.exists());
        assert!(check_record_path(dir.path()).unwrap_err().contains("is a directory"));
        // A whole game saves the record over it, with no temporary file left.
        let mut a = args(0, true);
        a.record = Some(path.clone());
        play(&a, &mut Cursor::new(String::new()), false, &mut Vec::new()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let record: Record = serde_json::from_str(&text).unwrap();
        assert!(record.actions.len() >= 3 * 18, "{}", record.actions.len());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn the_log_tells_discard_and_trade_income_apart() {
        use wonders_core::Played;
        let game = Game::new(&setup_for(Edition::First, 3, 1)).unwrap();
        let names = SeatNames::new(&game, Some(0));
        let catalog = game.catalog();
        // Seat 1 bought 2 coins of resources from its left neighbour, seat 2; seat 2 discarded.
        let built = LogEntry {
            age: 1,
            turn: 1,
            seat: 1,
            played: Played::Built(catalog.find_card("Baths").unwrap()),
            pay: Payment::paid(2, 0, 0),
            income: 0,
        };
        let discarded =
            LogEntry { seat: 2, played: Played::Discarded, pay: Payment::default(), income: 5, ..built };
        let mut text = String::new();
        log_text(&mut text, catalog, &[built, discarded], &names, 6);
        assert!(text.contains("+3 coins (discard), +2 coins (trade: paid by neighbours)"), "{text}");
    }

    #[test]
    fn long_lines_wrap_at_words_keeping_their_indent() {
        let line = "  Baths [blue] cost S → 3 VP; makes free later: Aqueduct";
        assert_eq!(wrap(line, 30), "  Baths [blue] cost S → 3 VP;\n    makes free later: Aqueduct");
        assert_eq!(wrap("short\nlines stay", 30), "short\nlines stay");
        assert_eq!(wrap("a verylongwordthatdoesnotfit b", 10), "a\n  verylongwordthatdoesnotfit\n  b");
    }

    #[test]
    fn the_default_opponents_are_heuristic_bots() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        assert_eq!(Cli::parse_from(["play"]).play.bots, "heuristic");
    }

    #[test]
    fn end_of_input_is_an_error() {
        let mut input = Cursor::new("1\n1\n".to_string());
        let err = play(&args(0, false), &mut input, false, &mut Vec::new()).unwrap_err();
        assert!(err.contains("standard input ended"), "{err}");
    }

    #[test]
    fn every_choice_listed_is_legal_and_every_legal_action_listed() {
        let mut legal = Vec::new();
        let kinds = (2..=7).map(|n| (Edition::First, n)).chain((3..=7).map(|n| (Edition::Second, n)));
        for (edition, players) in kinds {
            for seed in 0..6 {
                let mut game = Game::new(&setup_for(edition, players, seed)).unwrap();
                let names = SeatNames::new(&game, Some(0));
                let mut bots: Vec<RandomBot> =
                    (0..game.players() as u64).map(|s| RandomBot::new(seed * 8 + s)).collect();
                while !game.is_over() {
                    for seat in game.to_act() {
                        game.legal_actions_into(seat, &mut legal);
                        let view = game.view(seat);
                        let mut text = String::new();
                        situation_text(&mut text, game.catalog(), &view, &names);
                        let names = SeatNames::new(&game, Some(seat));
                        let shown = choice_list(&mut text, game.catalog(), &view, &legal, &names);
                        assert_eq!(shown.len(), legal.len(), "{text}");
                        assert!(legal.iter().all(|a| shown.contains(a)));
                        let a = bots[seat].choose(&view, &legal);
                        game.submit(seat, a).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn bots_lists_name_every_other_seat() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(seat_bot_names("heuristic", 3, 1, false).unwrap(), v(&["heuristic"; 3]));
        assert_eq!(
            seat_bot_names("heuristic, search:10it", 3, 1, false).unwrap(),
            v(&["heuristic", "random", "search:10it"])
        );
        assert_eq!(
            seat_bot_names("search:5it,search:6it", 3, 0, false).unwrap(),
            v(&["random", "search:5it", "search:6it"])
        );
        assert_eq!(
            seat_bot_names("heuristic,random,heuristic", 3, 0, true).unwrap(),
            v(&["heuristic", "random", "heuristic"])
        );
        assert!(
            seat_bot_names("heuristic,random,heuristic", 3, 0, false)
                .unwrap_err()
                .contains("one per other seat (2)")
        );
        assert!(
            seat_bot_names("heuristic,oracle", 3, 0, false).unwrap_err().contains("unknown bot `oracle`")
        );
        assert!(seat_bot_names("heuristic,", 3, 0, false).unwrap_err().contains("empty name"));
    }

    #[test]
    fn heuristic_opponents_play_a_whole_game() {
        let mut a = args(0, true);
        a.bots = "heuristic".into();
        let mut out = Vec::new();
        play(&a, &mut Cursor::new(String::new()), false, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("bot: heuristic") && out.contains("Final scores:"), "{out}");
    }

    #[test]
    fn seat_out_of_range_is_refused() {
        let err = play(&args(3, true), &mut Cursor::new(String::new()), false, &mut Vec::new()).unwrap_err();
        assert!(err.contains("--seat 3"), "{err}");
    }
}
