//! `wonders play`: a whole game in the terminal, line by line, against bots (`--bots`; heuristic
//! by default).
//!
//! The human sees what a person at the table would see: their hand, their city and their
//! neighbours' cities, and after each step what every seat did, all within an 80×45 screen. A
//! hand is chosen from card first, then one of the card's ways, each saying whom it pays; other
//! choices are one numbered list. Both editions play; two players play the 1st
//! edition's Free City variant, where the human also chooses for the Free City when holding its
//! card. The module also holds the text shared with `wonders replay`: log lines, payment
//! descriptions and the score sheet.

pub(crate) mod armada;
mod screen;

use screen::{LEGEND, card_brief, card_effect, card_text, effect_short, pack, pack_units, payment_short};
pub(crate) use screen::{Screen, wrap};

use crate::simulate::{ExpansionArgs, bot_seed, edition_name, expansions_text, parse_edition, setup_for};
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use wonders_bots::coach::HINT_SAMPLES;
use wonders_bots::{BOT_NAMES_HELP, Bot, RandomBot, bot_from_name, normalize_bot_name, notify_game_over};
use wonders_core::armada::{ArmadaEvent, MoveCause};
use wonders_core::edifice::{EdificeEvent, Outcome};
use wonders_core::score::Score;
use wonders_core::{
    Action, CardId, Catalog, City, Colour, Edition, FreeBy, Game, LogEntry, MilitaryTokens, Payment, Phase,
    Played, Production, Record, Resource, Setup, StageExtra, View,
};

pub(crate) use crate::output::say;

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
    /// for K threads, e.g. search:200ms:2t), neural (a policy network, no search),
    /// exec:COMMAND[:timeout=<T>] for a program speaking
    /// the bot protocol (`wonders bot-protocol`; the command cannot hold a comma).
    #[arg(long, short = 'b', value_name = "LIST", default_value = "heuristic")]
    pub bots: String,
    /// Let yourself ask for a hint: `h` at a prompt shows the search bot's three preferred moves
    /// with the share of its sampled games each wins (off by default).
    #[arg(long)]
    pub hints: bool,
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
    let echo = !stdin.is_terminal();
    let screen = Screen { hints: args.hints, ..Screen::stdout(!echo) };
    play_on(args, &mut stdin.lock(), echo, &mut std::io::stdout().lock(), screen)
}

/// A writer that wraps each line it is given at `width` columns (see [`wrap`]) and counts the
/// lines written since the last answer, to know what is still on the screen.
struct Wrapping<'a> {
    inner: &'a mut dyn Write,
    width: usize,
    /// Lines written since the human last answered.
    lines: usize,
}

impl Write for Wrapping<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        let wrapped = wrap(&text, self.width);
        self.lines += wrapped.matches('\n').count();
        self.inner.write_all(wrapped.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The text of the steps resolved since the human last answered, not printed yet, each part
/// in three forms from the fullest: a step's log in full, with the cities named without their
/// boards, then with its lines run on; an Age's end in full, then with a line per city (or
/// fewer). The human's next turn shows the fullest that leaves it room.
#[derive(Default)]
struct Pending(Vec<[String; 3]>);

impl Pending {
    /// Adds a part in its three forms.
    fn push(&mut self, forms: [String; 3]) {
        self.0.push(forms);
    }

    /// Every part in its form `level` (0 the fullest, 2 the shortest).
    fn text(&self, level: usize) -> String {
        self.0.iter().map(|forms| forms[level.min(2)].as_str()).collect()
    }

    /// [`Pending::text`], the parts then forgotten.
    fn take(&mut self, level: usize) -> String {
        let text = self.text(level);
        self.0.clear();
        text
    }
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

/// Plays a game reading the human's choices from `input` and writing to `out`, 80 columns
/// without colour. With `echo`, each answer read is written back (for input that is not typed on
/// a terminal).
#[cfg(test)]
fn play(args: &PlayArgs, input: &mut dyn BufRead, echo: bool, out: &mut dyn Write) -> Result<(), String> {
    play_on(args, input, echo, out, Screen { hints: args.hints, ..Screen::PLAIN })
}

/// Plays a game as [`play`] does, for `screen`: every line wrapped at its width, card names
/// coloured when it takes colour.
fn play_on(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    echo: bool,
    out: &mut dyn Write,
    screen: Screen,
) -> Result<(), String> {
    let out = &mut Wrapping { inner: out, width: screen.width, lines: 0 };
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
    say!(text, "{LEGEND}");
    if game.armada().is_some() || game.edifice().is_some() {
        say!(text, "{}", armada::DAGGER_KEY);
    }
    emit(out, &text)?;

    let outcome = play_to_end(
        &mut game,
        &mut record,
        (seed, &bot_names),
        human,
        &mut names,
        (input, echo),
        (out, &screen),
    );
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
/// step's log is printed on `out` when it resolves, laid out for `screen`.
fn play_to_end(
    game: &mut Game,
    record: &mut Record,
    bots: (u64, &[String]),
    human: Option<usize>,
    names: &mut SeatNames,
    input: (&mut dyn BufRead, bool),
    (out, screen): (&mut Wrapping<'_>, &Screen),
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
    // What happened since the human last answered, printed with the human's next turn (which
    // chooses how much room it takes) or at once when no seat is human.
    let mut pending = Pending::default();
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            game.legal_actions_into(seat, &mut legal);
            let view = game.view(seat);
            let action = if human == Some(seat) {
                ask(catalog, &view, &legal, names, &mut pending, (&mut *input, echo), out, screen)?
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
            let mut forms: [String; 3] = Default::default();
            let short = names.shortened();
            for (k, (names, packed)) in
                [(&*names, false), (&short, false), (&short, true)].into_iter().enumerate()
            {
                log_with(&mut forms[k], catalog, game.last_log(), names, game.turns(), screen, packed);
            }
            pending.push(forms);
            if game.age() != age || game.is_over() {
                let mut full = String::new();
                edifice_age_text(&mut full, game, age, names);
                military_text(&mut full, game, age, &tokens, names);
                armada::age_end_text(&mut full, game, age, names);
                let short = age_end_short(game, age, &tokens, names, screen);
                pending.push([full, short.clone(), short]);
                tokens = game.cities().iter().map(|c| c.tokens).collect();
                if screen.pause && human.is_some() && !game.is_over() {
                    // The Age's conflicts keep a screen of their own until the human goes on.
                    emit(out, &pending.take(0))?;
                    let next = format!("Press Enter for Age {} (q to quit): ", roman(game.age()));
                    emit(out, &next)?;
                    let when = format!("at the end of Age {}", roman(age));
                    let answer = read_answer(&mut *input, echo, out, &when)?;
                    if is_quit(&answer) {
                        return Err("game abandoned at your request".into());
                    }
                }
                age = game.age();
            }
            if human.is_none() {
                emit(out, &pending.take(0))?;
            }
        }
    }
    emit(out, &pending.take(0))?;
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

    /// The names without their boards ([`SeatNames::short`]), for a log short of room.
    fn shortened(&self) -> SeatNames {
        SeatNames((0..self.len()).map(|i| self.short(i).to_string()).collect())
    }

    /// The name of the city at `index` without its board: `seat 2`, `you`, `the Free City`.
    pub(crate) fn short(&self, index: usize) -> &str {
        let name = self.get(index);
        if name.starts_with("you (") { "you" } else { name.split(" (").next().unwrap_or(name) }
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

/// The human's own cards: the brown and grey ones counted (what they make is on the line above),
/// the others named by colour, e.g. `2 brown, 1 grey | blue: Baths | red: Stockade`.
fn own_cards(catalog: &Catalog, city: &City, screen: &Screen) -> String {
    let mut parts: Vec<String> = Vec::new();
    let counted: Vec<String> = [Colour::Brown, Colour::Grey]
        .iter()
        .filter(|&&c| city.colour_counts[c as usize] > 0)
        .map(|&c| screen.painted(&format!("{} {c}", city.colour_counts[c as usize]), c))
        .collect();
    if !counted.is_empty() {
        parts.push(counted.join(", "));
    }
    for &colour in &Colour::ALL[2..] {
        let names: Vec<String> = city
            .built
            .iter()
            .filter(|&c| catalog.card(c).colour == colour)
            .map(|c| screen.card(catalog, c))
            .collect();
        if !names.is_empty() {
            parts.push(format!("{colour}: {}", names.join(", ")));
        }
    }
    if parts.is_empty() { "no cards yet".into() } else { parts.join(" | ") }
}

/// Another city's cards, counted by colour, its guilds named: `2 brown, 1 blue | purple: Spies
/// Guild`; `no cards` when none.
fn cards_counted(catalog: &Catalog, city: &City, screen: &Screen) -> String {
    let counts: Vec<String> = Colour::ALL[..6]
        .iter()
        .filter(|&&c| city.colour_counts[c as usize] > 0)
        .map(|&c| screen.painted(&format!("{} {c}", city.colour_counts[c as usize]), c))
        .collect();
    let guilds: Vec<String> = city
        .built
        .iter()
        .filter(|&c| catalog.card(c).colour == Colour::Purple)
        .map(|c| screen.card(catalog, c))
        .collect();
    let mut s = if counts.is_empty() { "no cards".to_string() } else { counts.join(", ") };
    if !guilds.is_empty() {
        let _ = write!(s, " | purple: {}", guilds.join(", "));
    }
    s
}

/// The stages built and the next one: `0/2, next SSS → 1 shield, 3 coins, 3 VP` or `3/3
/// (complete)`.
fn wonder_text(catalog: &Catalog, city: &City) -> String {
    let stages = catalog.wonder(city.wonder).stages(city.side);
    let built = city.stages as usize;
    match stages.get(built) {
        Some(next) => {
            let effects: Vec<String> = next.effects.iter().map(effect_short).collect();
            let cost = if next.cost.is_empty() { "free".to_string() } else { next.cost.to_string() };
            format!("{built}/{}, next {cost} → {}", stages.len(), effects.join(", "))
        }
        None => format!("{built}/{} (complete)", stages.len()),
    }
}

/// A city's science symbols, e.g. `science 1 compass 2 tablet + 1 wild`; `None` without any.
fn science_text(city: &City) -> Option<String> {
    let [compass, gear, tablet] = city.science;
    let parts: Vec<String> = [(compass, "compass"), (gear, "gear"), (tablet, "tablet")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    let mut parts = parts;
    if city.science_wild > 0 {
        parts.push(format!("{} wild", city.science_wild));
    }
    (!parts.is_empty()).then(|| format!("science {}", parts.join(" ")))
}

/// Coins, shields and military of a city: `2 coins, 1 shield, military +0`.
fn status_text(city: &City) -> String {
    format!(
        "{} coin{}, {} shield{}, military {:+}",
        city.coins,
        plural(city.coins),
        city.shields,
        plural(city.shields as u16),
        city.tokens.points()
    )
}

/// The resources `buyer` buys for 1 coin on `side` (0 left, 1 right), e.g. ` (1 coin for W/S/C/O)`.
fn discount_text(buyer: &City, side: usize) -> String {
    let cheap: Vec<String> = Resource::ALL
        .iter()
        .filter(|&&r| buyer.price(side, r) == 1)
        .map(|r| r.letter().to_string())
        .collect();
    if cheap.is_empty() { String::new() } else { format!(" (1 coin for {})", cheap.join("/")) }
}

/// How much of the situation a turn shows ([`situation_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detail {
    /// Every city: the acting one's cards named and its shipyard in full.
    Full,
    /// The acting city's cards counted by colour and its shipyard on one line.
    Compact,
    /// The acting city and its neighbours in a few lines, the other cities named without their
    /// boards, the teammate's hand; every city in full on demand (`c`).
    Brief,
    /// As [`Detail::Brief`], without the other cities nor the teammate's hand.
    Least,
}

/// The situation of the human's seat: the step; the city the action is for (status, wonder,
/// production, cards); both neighbours on two lines each (status and wonder; what they sell and
/// their cards by colour); every other city on one line; as much of it as `level` says.
fn situation_with(
    text: &mut String,
    catalog: &Catalog,
    view: &View,
    names: &SeatNames,
    screen: &Screen,
    level: Detail,
) {
    let compact = level != Detail::Full;
    let seat = view.seat as usize;
    let acting = view.acting_city as usize;
    let n = view.cities.len();
    let Some(me) = view.cities.get(acting) else {
        return;
    };
    let step = match view.phase {
        Phase::ChooseSide => "choose the side of your wonder board".to_string(),
        Phase::PlayLastCard { .. } => "Babylon: play the last card of the Age".to_string(),
        Phase::BuildFromDiscard { .. } => "Halicarnassus: build from the discard pile".to_string(),
        Phase::EdificeDiscard { .. } => "the great project failed: discard a card of your city".to_string(),
        Phase::Explore { .. } => "Armada: keep one island of your exploration".to_string(),
        Phase::IslandMoves { .. } => "Armada: choose the ships of your island's free moves".to_string(),
        Phase::NavalOptOut { .. } => "Armada: Forgotten Port — take part in the naval conflict?".to_string(),
        _ => format!("turn {} (cards pass {})", view.turn, if view.age == 2 { "right" } else { "left" }),
    };
    say!(text, "{}", screen.bold(&format!("=== Age {}, {step} — {} ===", roman(view.age), names.get(seat))));
    if view.phase == Phase::ChooseSide {
        return;
    }
    let who = if acting == seat { "You".to_string() } else { format!("Playing for {}", names.get(acting)) };
    let w = catalog.wonder(me.wonder);
    let mut parts = vec![format!("{who}: {}", status_text(me))];
    parts.extend(science_text(me));
    parts.extend(edifice_city_text(catalog, view, me));
    parts.push(format!("makes {}", production_text(&me.production)));
    let brief = matches!(level, Detail::Brief | Detail::Least);
    if brief {
        // Its board is in the heading.
        parts.push(format!("wonder {}", wonder_text(catalog, me)));
    } else {
        parts.push(format!("wonder {} {} {}", w.name, side_label(catalog, me), wonder_text(catalog, me)));
    }
    if brief {
        // The city on as few lines as fit, the neighbours on one each; the rest on demand.
        parts.push(format!("city: {}", cards_counted(catalog, me, screen)));
        parts.extend(armada::shipyard_parts(view, acting));
        say!(text, "{}", wrap(&parts.join("; "), screen.width));
        let (left, right) = ((acting + 1) % n, (acting + n - 1) % n);
        for (side, label, other) in [(0, "Left", left), (1, "Right", right)] {
            let Some(c) = view.cities.get(other) else {
                continue;
            };
            let mate = if view.teams && wonders_core::teams::teammate(seat) == other {
                " (your teammate)"
            } else {
                ""
            };
            let parts = vec![
                format!("{label}{mate}: {}, {}", names.short(other), status_text(c)),
                format!("wonder {}/{}", c.stages, c.stage_count(catalog)),
                format!("sells {}{}", production_text(&c.for_sale), discount_text(me, side)),
            ];
            say!(text, "{}", pack(&parts, screen.width));
        }
        if level == Detail::Brief {
            others_text(text, catalog, view, &names.shortened(), screen);
            teammate_text(text, catalog, view, &names.shortened(), screen);
        }
        return;
    }
    say!(text, "{}", pack(&parts, screen.width));
    if compact {
        let mut parts = vec![format!("  city: {}", cards_counted(catalog, me, screen))];
        parts.extend(armada::shipyard_parts(view, acting));
        say!(text, "{}", pack(&parts, screen.width));
    } else {
        say!(text, "{}", wrap(&format!("  city: {}", own_cards(catalog, me, screen)), screen.width));
        armada::shipyard_text(text, view, acting);
    }
    projects_text(text, catalog, view, names);
    let mate = view.teams.then(|| wonders_core::teams::teammate(seat));
    let (left, right) = ((acting + 1) % n, (acting + n - 1) % n);
    for (side, label, other) in [(0, "Left", left), (1, "Right", right)] {
        let Some(c) = view.cities.get(other) else {
            continue;
        };
        let mut parts = vec![format!(
            "{label}{}: {}, {}",
            if mate == Some(other) { " (your teammate)" } else { "" },
            names.get(other),
            status_text(c)
        )];
        parts.push(format!("wonder {}/{}", c.stages, c.stage_count(catalog)));
        parts.extend(science_text(c));
        parts.extend(edifice_city_text(catalog, view, c));
        parts.push(format!("sells {}{}", production_text(&c.for_sale), discount_text(me, side)));
        parts.push(cards_counted(catalog, c, screen));
        parts.extend(armada::shipyard_parts(view, other));
        say!(text, "{}", pack(&parts, screen.width));
    }
    others_text(text, catalog, view, names, screen);
    teammate_text(text, catalog, view, names, screen);
}

/// The cities but the acting one and its neighbours, as many a line as fit: coins, shields,
/// military points, wonder stages built of all.
fn others_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames, screen: &Screen) {
    let acting = view.acting_city as usize;
    let n = view.cities.len();
    let (left, right) = ((acting + 1) % n, (acting + n - 1) % n);
    let others: Vec<String> = (0..n)
        .filter(|&c| c != acting && c != left && c != right)
        .map(|other| {
            let c = &view.cities[other];
            format!(
                "{}: {}, {}, {:+}, {}/{}",
                names.get(other),
                c.coins,
                c.shields,
                c.tokens.points(),
                c.stages,
                c.stage_count(catalog)
            )
        })
        .collect();
    if let Some(first) = others.first() {
        let mut parts = vec![format!("Others (coins, shields, military, wonder): {first}")];
        parts.extend(others.iter().skip(1).cloned());
        say!(text, "{}", pack(&parts, screen.width));
    }
}

/// Team variant: the teammate's hand (teammates may show their hands, 000 團隊遊戲規則).
fn teammate_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames, screen: &Screen) {
    if let Some(hand) = &view.teammate_hand {
        let mate = wonders_core::teams::teammate(view.seat as usize);
        let cards: Vec<String> = hand.iter().map(|&c| screen.card(catalog, c)).collect();
        say!(text, "Your teammate {}'s hand: {}", names.get(mate), cards.join(", "));
    }
}

/// Edifice: a city's pawns (with what became of each project) and debt tokens, e.g.
/// `pawns I (completed), III; debt tokens II (-3 VP)`, or `no pawn`; `None` without the
/// expansion.
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
    let mut s = if pawns.is_empty() { "no pawn".into() } else { format!("pawns {}", pawns.join(", ")) };
    let debt: Vec<String> = (0..3)
        .flat_map(|a| std::iter::repeat_n(a as u8 + 1, city.edifice.debt[a] as usize))
        .map(|age| format!("{} (-{} VP)", roman(age), data.debt_points(age)))
        .collect();
    if !debt.is_empty() {
        let _ = write!(s, "; debt tokens {}", debt.join(", "));
    }
    Some(s)
}

/// Edifice: the great projects. The current Age's (while open) marked `>>` with its pawns left
/// and holders, the other Ages' after it, on its line when they fit (`great projects: Age I Money
/// Changer FAILED, Age III Agora`; each city's line names its pawns), then what taking part
/// costs, its reward and its penalty, each marked `†` when no printed source confirms it.
pub(crate) fn projects_text(text: &mut String, catalog: &Catalog, view: &View, names: &SeatNames) {
    let (Some(state), Some(data)) = (view.edifice.as_ref(), catalog.edifice.as_deref()) else {
        return;
    };
    let mark = |provisional: bool| if provisional { "†" } else { "" };
    let holders = |a: usize| -> String {
        let h: Vec<&str> = (0..view.cities.len())
            .filter(|&c| view.cities[c].edifice.pawns[a] > 0)
            .map(|c| names.get(c))
            .collect();
        if h.is_empty() { "none".into() } else { h.join(", ") }
    };
    let name = |a: usize| {
        let p = data.project(state.projects[a]);
        if p.zh.is_empty() { p.name.clone() } else { format!("{} {}", p.name, p.zh) }
    };
    let current = (view.age as usize).checked_sub(1).filter(|&a| a < 3 && state.outcome[a] == Outcome::Open);
    let others: Vec<String> = (0..3)
        .filter(|&a| Some(a) != current)
        .map(|a| {
            let age = roman(a as u8 + 1);
            match state.outcome[a] {
                Outcome::Open => format!("Age {age} {}", name(a)),
                Outcome::Completed => format!("Age {age} {} COMPLETED", name(a)),
                Outcome::Failed => format!("Age {age} {} FAILED", name(a)),
            }
        })
        .collect();
    let Some(a) = current else {
        say!(text, "  great projects: {}", others.join(", "));
        return;
    };
    // While an Age's project is open, the other Ages' are named on its first turn only.
    let others = if view.turn <= 1 { others } else { Vec::new() };
    let p = data.project(state.projects[a]);
    let now = format!(
        "  >> Age {} {}: {} pawn{} left; holders: {}",
        roman(a as u8 + 1),
        name(a),
        state.left[a],
        plural(state.left[a] as u16),
        holders(a)
    );
    // Then what taking part costs, the reward and the penalty, packed on as few lines as fit;
    // the other Ages' projects last.
    let mut parts = vec![
        now,
        format!("take part: {}{}", p.cost_text(), mark(p.cost_status.provisional())),
        format!("reward: {}{}", p.reward_text(), mark(p.reward_status.provisional())),
        format!("penalty: {}{}", p.penalty, mark(p.penalty_status.provisional())),
    ];
    if !others.is_empty() {
        parts.push(format!("great projects: {}", others.join(", ")));
    }
    let packed = pack(&parts, 80);
    // The lines after the first are indented under the project's name.
    say!(text, "{}", packed.replace("\n  ", "\n     "));
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

/// Shows the human's turn — what happened since the last answer, the situation, the choices —
/// and reads a choice; returns the chosen action.
///
/// A hand is chosen from in two steps: a card (one line each, saying what can be done with it),
/// then one of that card's ways (`0` goes back to the hand; too many ways: the kind of play,
/// then how to pay); `3.2` at the first prompt takes the card's way at once. Other choices (a
/// side, an island, a card of the discard pile…) are one numbered list, a page at a time when
/// longer than the room left. When the turn would not fit the screen it takes the fullest of
/// shorter layouts that fits (see `layouts` below); on a terminal, one still too long waits for
/// Enter after the log.
#[allow(clippy::too_many_arguments)]
fn ask(
    catalog: &Catalog,
    view: &View,
    legal: &[Action],
    names: &SeatNames,
    pending: &mut Pending,
    (input, echo): (&mut dyn BufRead, bool),
    out: &mut Wrapping<'_>,
    screen: &Screen,
) -> Result<Action, String> {
    let hand = matches!(view.phase, Phase::Choose | Phase::PlayLastCard { .. });
    let mut menu = String::new();
    let (groups, choices) = if hand {
        let groups = hand_menu(&mut menu, catalog, view, legal, screen);
        (groups, Vec::new())
    } else {
        (Vec::new(), choice_list(&mut menu, catalog, view, legal, names, screen))
    };
    if groups.is_empty() && choices.is_empty() {
        return Err("no legal action to choose from (this is a bug in the engine)".into());
    }
    let lines = |t: &str| wrap(t, screen.width).matches('\n').count();
    let situation = |level| {
        let mut text = String::new();
        situation_with(&mut text, catalog, view, names, screen, level);
        text
    };
    // The fullest layout that fits: everything in full; then what happened in short; then the
    // city in short; then the neighbours on a line each and the others in short; then only the
    // city and its neighbours; then the log's lines run on.
    let layouts = [
        (0, Detail::Full),
        (1, Detail::Full),
        (1, Detail::Compact),
        (1, Detail::Brief),
        (1, Detail::Least),
        (2, Detail::Least),
    ];
    // On a terminal a log too long for the turn waits for Enter rather than hide the cities.
    let layouts = if screen.pause { &layouts[..3] } else { &layouts[..] };
    let mut shown = (String::new(), String::new());
    for &(short, level) in layouts {
        shown = (pending.text(short), situation(level));
        if out.lines + lines(&shown.0) + lines(&shown.1) + lines(&menu) < screen.height {
            break;
        }
    }
    if out.lines + lines(&shown.0) + lines(&shown.1) + lines(&menu) >= screen.height && screen.pause {
        // On a terminal: what happened in full on a screen of its own, then the turn.
        emit(out, &pending.take(0))?;
        busy_log_pause(view, (&mut *input, echo), out, screen)?;
        let level = [Detail::Full, Detail::Compact]
            .into_iter()
            .find(|&l| lines(&situation(l)) + lines(&menu) < screen.height)
            .unwrap_or(Detail::Least);
        shown = (String::new(), situation(level));
    }
    pending.take(0);
    // A list longer than the room left is given a page at a time (`m` for the next).
    let room = screen.height.saturating_sub(out.lines + lines(&shown.0) + lines(&shown.1) + 1);
    let pages = if hand { vec![menu.clone()] } else { pages_of(&menu, room.max(10)) };
    emit(out, &format!("{}{}{}", shown.0, shown.1, pages[0]))?;
    let hint = || hint_text(catalog, view, legal, screen);
    // `c` at a prompt: every city in full, then the choices again.
    let cities = |choices: &str| format!("{}{choices}", situation(Detail::Full));
    if !hand {
        let page = std::cell::Cell::new(0);
        let again = || cities(&pages[page.get()]);
        let next = || {
            page.set((page.get() + 1) % pages.len());
            pages[page.get()].clone()
        };
        let more: Option<&dyn Fn() -> String> = (pages.len() > 1).then_some(&next);
        let (k, _) = choose(
            view,
            names,
            (&mut *input, echo),
            out,
            "Your choice",
            1..=choices.len(),
            None,
            (&hint, &again, more),
        )?;
        return Ok(choices[k - 1]);
    }
    let ways = |k: usize| groups.get(k.wrapping_sub(1)).map_or(0, |g| g.actions.len());
    let again = || cities(&menu);
    loop {
        let (k, way) = choose(
            view,
            names,
            (&mut *input, echo),
            out,
            "Your card",
            1..=groups.len(),
            Some(&ways),
            (&hint, &again, None),
        )?;
        let g = &groups[k - 1];
        if let Some(w) = way {
            return Ok(g.actions[w - 1]);
        }
        let (card, kinds) = card_ways(view, g, names, screen);
        let again = || cities(&card);
        let Some(kinds) = kinds else {
            emit(out, &card)?;
            let range = 0..=g.actions.len();
            let (w, _) = choose(
                view,
                names,
                (&mut *input, echo),
                out,
                "Your choice",
                range,
                None,
                (&hint, &again, None),
            )?;
            if w > 0 {
                return Ok(g.actions[w - 1]);
            }
            emit(out, &menu)?;
            continue;
        };
        // Too many ways: the kind of play, then how to pay.
        loop {
            emit(out, &card)?;
            let range = 0..=kinds.len();
            let (w, _) = choose(
                view,
                names,
                (&mut *input, echo),
                out,
                "Your choice",
                range,
                None,
                (&hint, &again, None),
            )?;
            let Some(kind) = w.checked_sub(1).and_then(|w| kinds.get(w)) else {
                break;
            };
            if let [(i, _)] = kind.ways.as_slice() {
                return Ok(g.actions[*i]);
            }
            let pays = pay_ways(kind, screen);
            emit(out, &pays)?;
            let again = || cities(&pays);
            let range = 0..=kind.ways.len();
            let (p, _) = choose(
                view,
                names,
                (&mut *input, echo),
                out,
                "How to pay",
                range,
                None,
                (&hint, &again, None),
            )?;
            if p > 0 {
                return Ok(g.actions[kind.ways[p - 1].0]);
            }
        }
        emit(out, &menu)?;
    }
}

/// One kind of play of a card — `build`, `build + naval green → green ship 0→1: nothing`,
/// `wonder stage 2`, `discard: +3 coins` — and its ways to pay: each the index of its action
/// in the card's actions and whom it pays (empty for a discard).
struct WayGroup {
    what: String,
    ways: Vec<(usize, String)>,
}

/// The card's actions by kind of play, in order ([`WayGroup`]).
fn way_groups(view: &View, g: &CardChoices, names: &SeatNames) -> Vec<WayGroup> {
    let acting = view.acting_city as usize;
    let stage_no = view.cities.get(acting).map_or(1, |c| c.stages + 1);
    let mut groups: Vec<WayGroup> = Vec::new();
    for (i, a) in g.actions.iter().enumerate() {
        let (mut what, pay) = way_label(a, stage_no, view, names);
        // A naval construction says what its step gives.
        let fleet = match *a {
            Action::Build { naval, .. } => naval.construction(),
            Action::Wonder { extra, .. } => extra.naval(),
            _ => None,
        };
        if let Some(step) = fleet.and_then(|f| armada::construction_text(view, acting, f)) {
            let _ = write!(what, " → {step}");
        }
        match groups.iter_mut().find(|w| w.what == what) {
            Some(group) => group.ways.push((i, pay)),
            None => groups.push(WayGroup { what, ways: vec![(i, pay)] }),
        }
    }
    groups
}

/// The second step of a hand's choice: the card in full (with its chains), why it cannot be built
/// when it cannot, then each of its ways numbered — what it does and whom it pays, a naval
/// construction saying what its step gives — and `[0]` back to the hand. When they would not fit
/// the screen, the kinds of play instead (`[2] build + naval green … — 5 ways to pay, from 3
/// coins`), each kind's ways to pay coming as a third step: `Some` of those groups.
fn card_ways(
    view: &View,
    g: &CardChoices,
    names: &SeatNames,
    screen: &Screen,
) -> (String, Option<Vec<WayGroup>>) {
    let mut text = String::new();
    say!(text, "{}", wrap(&format!("{}:", g.head.trim_start()), screen.width));
    if let Some(reason) = &g.reason {
        say!(text, "{}", wrap(&format!("  can't build: {reason}"), screen.width));
    }
    let groups = way_groups(view, g, names);
    let mut listed = String::new();
    for group in &groups {
        for (i, pay) in &group.ways {
            let line = if pay.is_empty() { group.what.clone() } else { format!("{}: {pay}", group.what) };
            say!(listed, "{}", wrap(&format!("  {} {line}", screen.number(i + 1)), screen.width));
        }
    }
    say!(listed, "  {} back to the hand", screen.number(0));
    if lines_of(&text) + lines_of(&listed) < screen.height {
        text.push_str(&listed);
        return (text, None);
    }
    // Too many ways for the screen: the kinds of play first.
    for (k, group) in groups.iter().enumerate() {
        let line = match group.ways.as_slice() {
            [(_, pay)] if pay.is_empty() => group.what.clone(),
            [(_, pay)] => format!("{}: {pay}", group.what),
            many => {
                let least = many
                    .iter()
                    .map(|(i, _)| g.actions[*i].payment().map_or(0, |p| p.total()))
                    .min()
                    .unwrap_or(0);
                let from = if least == 0 {
                    "free".to_string()
                } else {
                    format!("from {least} coin{}", plural(least))
                };
                format!("{} — {} ways to pay, {from}", group.what, many.len())
            }
        };
        say!(text, "{}", wrap(&format!("  {} {line}", screen.number(k + 1)), screen.width));
    }
    say!(text, "  {} back to the hand", screen.number(0));
    (text, Some(groups))
}

/// The third step of a hand's choice, for a kind of play with several ways to pay: each way
/// numbered, and `[0]` back to the card.
fn pay_ways(group: &WayGroup, screen: &Screen) -> String {
    let mut text = String::new();
    say!(text, "{}", wrap(&format!("{}; how to pay:", group.what), screen.width));
    for (k, (_, pay)) in group.ways.iter().enumerate() {
        say!(text, "{}", wrap(&format!("  {} {pay}", screen.number(k + 1)), screen.width));
    }
    say!(text, "  {} back to the card", screen.number(0));
    text
}

/// The number of lines of `text`.
fn lines_of(text: &str) -> usize {
    text.matches('\n').count()
}

/// A list of choices cut into pages of at most `size` lines, never inside a choice (a page
/// starts at a numbered line or at a heading indented by 2), each page but one saying how to see
/// the next (`m`). One page when it fits.
fn pages_of(menu: &str, size: usize) -> Vec<String> {
    let lines: Vec<&str> = menu.lines().collect();
    if lines.len() <= size {
        return vec![menu.to_string()];
    }
    let starts = |l: &str| {
        let t = l.trim_start();
        t.starts_with('[') || (l.starts_with("  ") && !l.starts_with("   "))
    };
    let mut pages: Vec<Vec<&str>> = vec![Vec::new()];
    for line in lines {
        let page = pages.last_mut().expect("a page");
        // One line for the page's note.
        if page.len() + 2 > size && starts(line) && !page.is_empty() {
            pages.push(Vec::new());
        }
        pages.last_mut().expect("a page").push(line);
    }
    let n = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(k, page)| {
            format!("{}\n(page {} of {n} of the choices; m for the next page)\n", page.join("\n"), k + 1)
        })
        .collect()
}

/// Whom a payment pays, for a choice: `2 to seat 1 (left) + 1 coin to the bank`, `free (chain)`,
/// `1 to seat 2 (2nd left)` (Armada's trading zones); each neighbour named as in the situation.
fn payment_to(pay: &Payment, view: &View, names: &SeatNames) -> String {
    if pay.free.is_some() || pay.total() == 0 {
        return payment_text(pay);
    }
    let n = view.cities.len();
    let acting = view.acting_city as usize;
    let who = |c: usize| names.short(c % n);
    let mut parts = Vec::new();
    for (coins, city, side) in [
        (pay.left, acting + 1, "left"),
        (pay.right, acting + n - 1, "right"),
        (pay.second.left(), acting + 2, "2nd left"),
        (pay.second.right(), acting + 2 * n - 2, "2nd right"),
    ] {
        if coins > 0 {
            parts.push(format!("{coins} to {} ({side})", who(city)));
        }
    }
    if pay.bank > 0 {
        parts.push(format!("{} coin{} to the bank", pay.bank, plural(pay.bank as u16)));
    }
    format!("pay {}", parts.join(" + "))
}

/// One way to play a card, in full, for the second step: what it does (`build`, `build + naval
/// red`, `wonder stage 2 + take part in the great project`, `discard: +3 coins`) and whom it
/// pays ([`payment_to`]; empty for a discard).
fn way_label(a: &Action, stage_no: u8, view: &View, names: &SeatNames) -> (String, String) {
    match *a {
        Action::Build { pay, .. } | Action::Wonder { pay, .. } => {
            (construction_what(a, stage_no), payment_to(&pay, view, names))
        }
        other => (action_line(&other, stage_no, view.edition), String::new()),
    }
}

/// A hint (`h` at a prompt, with `--hints`): the search bot's three preferred moves, each with
/// the share of its sampled games the seat wins after it; or how to turn hints on.
fn hint_text(catalog: &Catalog, view: &View, legal: &[Action], screen: &Screen) -> String {
    if !screen.hints {
        return "Hints are off: start the game with --hints to ask the search bot (h at a prompt).\n".into();
    }
    let advice = wonders_bots::coach::hint(view, legal, HINT_SAMPLES);
    let stage_no = view.cities.get(view.acting_city as usize).map_or(1, |c| c.stages + 1);
    let mut text = String::new();
    if advice.iter().all(|a| a.visits == 0) {
        say!(
            text,
            "Hint: only one move is worth playing here: {}",
            advice_label(catalog, &advice[0].action, stage_no)
        );
        return text;
    }
    say!(text, "Hint — the search bot's preferred moves ({HINT_SAMPLES} sampled games):");
    for (i, a) in advice.iter().take(3).enumerate() {
        let line = format!(
            "  {}. {} — wins {:.0}% of {} games",
            i + 1,
            advice_label(catalog, &a.action, stage_no),
            100.0 * a.win_chance,
            a.visits
        );
        say!(text, "{}", wrap(&line, screen.width));
    }
    text
}

/// A move named with its card, for a hint: `build Baths (free)`, `wonder stage 2 with Loom (1
/// left)`, `discard Press`.
pub(crate) fn advice_label(catalog: &Catalog, a: &Action, stage_no: u8) -> String {
    let name = |c: CardId| catalog.card(c).name.clone();
    match *a {
        Action::Build { card, pay, naval } => {
            let mut what = format!("build {}", name(card));
            if let Some(f) = naval.construction() {
                let _ = write!(what, " + naval {f}");
            }
            if let Some(f) = naval.free_move() {
                let _ = write!(what, " + free move {f}");
            }
            format!("{what} ({})", payment_short(&pay))
        }
        Action::Wonder { card, pay, extra } => {
            format!("wonder stage {stage_no} with {} ({})", name(card), way_text(&pay, extra))
        }
        Action::Discard { card } => format!("discard {}", name(card)),
        Action::DiscardYellow { card } => format!("discard {} (yellow ship's free move)", name(card)),
        other => action_line(&other, stage_no, Edition::First),
    }
}

/// On a terminal, a busy step's log (Armada's explorations, a tax, free moves) that leaves no
/// room for the decision stays in view until Enter, and the decision starts on a screen of its
/// own; nothing when nothing has been written since the last answer, or when the answers are not
/// typed.
fn busy_log_pause(
    view: &View,
    (input, echo): (&mut dyn BufRead, bool),
    out: &mut Wrapping<'_>,
    screen: &Screen,
) -> Result<(), String> {
    if !screen.pause || out.lines == 0 {
        return Ok(());
    }
    emit(out, "Press Enter for your turn (q to quit): ")?;
    let when = format!("at Age {}, turn {}", roman(view.age), view.turn);
    if is_quit(&read_answer(input, echo, out, &when)?) {
        return Err("game abandoned at your request".into());
    }
    Ok(())
}

/// Whether an answer asks to leave the game.
fn is_quit(answer: &str) -> bool {
    answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit")
}

/// Reads one answer (trimmed), echoing it when the input is not typed; the screen starts anew.
fn read_answer(
    input: &mut dyn BufRead,
    echo: bool,
    out: &mut Wrapping<'_>,
    when: &str,
) -> Result<String, String> {
    let mut answer = String::new();
    let read = input.read_line(&mut answer).map_err(|e| format!("reading standard input: {e}"))?;
    if read == 0 {
        return Err(format!("standard input ended {when}: the game is abandoned"));
    }
    let answer = answer.trim().to_string();
    if echo {
        emit(out, &format!("{answer}\n"))?;
    }
    out.lines = 0;
    Ok(answer)
}

/// A text shown on demand at a prompt (a hint, every city, the next page of choices).
type Shows<'a> = &'a dyn Fn() -> String;

/// Asks for a number in `range` after `what` until one comes (`q` quits, `h` shows `hint`, `c`
/// shows `cities`: every city in full and the choices again). With `ways` (the
/// number of ways of each card, at a hand's first step), `3.2` is also an answer: the 2nd way of
/// card 3, returned as the second number.
#[allow(clippy::too_many_arguments)]
fn choose(
    view: &View,
    names: &SeatNames,
    (input, echo): (&mut dyn BufRead, bool),
    out: &mut Wrapping<'_>,
    what: &str,
    range: std::ops::RangeInclusive<usize>,
    ways: Option<&dyn Fn(usize) -> usize>,
    (hint, cities, more): (Shows<'_>, Shows<'_>, Option<Shows<'_>>),
) -> Result<(usize, Option<usize>), String> {
    let (low, high) = (*range.start(), *range.end());
    loop {
        let m = if more.is_some() { "m: more, " } else { "" };
        emit(out, &format!("{what} ({low}-{high}, {m}c: every city, q to quit): "))?;
        let when = format!(
            "at Age {}, turn {} while {} had to choose",
            roman(view.age),
            view.turn,
            names.get(view.seat as usize)
        );
        let answer = read_answer(&mut *input, echo, out, &when)?;
        if is_quit(&answer) {
            return Err("game abandoned at your request".into());
        }
        if answer.eq_ignore_ascii_case("h") || answer.eq_ignore_ascii_case("hint") {
            emit(out, &hint())?;
            continue;
        }
        if answer.eq_ignore_ascii_case("c") {
            emit(out, &cities())?;
            continue;
        }
        if let Some(more) = more.filter(|_| answer.eq_ignore_ascii_case("m")) {
            emit(out, &more())?;
            continue;
        }
        let (first, second) = match (ways, answer.split_once('.')) {
            (Some(_), Some((card, way))) => (card.trim(), Some(way.trim())),
            _ => (answer.as_str(), None),
        };
        match (first.parse::<usize>(), second.map(str::parse::<usize>)) {
            (Ok(k), None) if range.contains(&k) => return Ok((k, None)),
            (Ok(k), Some(Ok(w))) if range.contains(&k) => {
                let most = ways.map_or(0, |f| f(k));
                if (1..=most).contains(&w) {
                    return Ok((k, Some(w)));
                }
                emit(out, &format!("card {k} has ways 1 to {most}: {w} is out of range.\n"))?;
            }
            (Ok(k), _) if !range.contains(&k) => {
                emit(out, &format!("{k} is out of range: type a number from {low} to {high}.\n"))?
            }
            _ if answer.is_empty() => emit(out, &format!("Type a number from {low} to {high}.\n"))?,
            _ => emit(out, &format!("`{answer}` is not a number: type a number from {low} to {high}.\n"))?,
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
    screen: &Screen,
) -> Vec<Action> {
    let mut shown = Vec::with_capacity(legal.len());
    let Some(me) = view.cities.get(view.acting_city as usize) else {
        shown.extend_from_slice(legal);
        return shown;
    };
    match view.phase {
        Phase::ChooseSide => {
            let w = catalog.wonder(me.wonder);
            say!(text, "Your board: {} ({}), making {}", w.name, w.full_name, w.start.letter());
            for a in legal {
                if let Action::ChooseSide { side } = *a {
                    shown.push(*a);
                    say!(text, "  {} side {}:", screen.number(shown.len()), side.label(view.edition));
                    for (i, stage) in w.stages(side).iter().enumerate() {
                        let effects: Vec<String> = stage.effects.iter().map(effect_short).collect();
                        say!(text, "        stage {}: {} → {}", i + 1, stage.cost, effects.join(", "));
                    }
                }
            }
        }
        Phase::Explore { .. } => armada::explore_choices(text, catalog, legal, &mut shown, screen),
        Phase::IslandMoves { .. } => armada::island_moves_choices(text, catalog, legal, &mut shown, screen),
        Phase::NavalOptOut { .. } => armada::opt_out_choices(text, view, legal, names, &mut shown, screen),
        Phase::EdificeDiscard { .. } => {
            say!(text, "The Age's great project failed: choose the card of your city to discard:");
            for a in legal {
                shown.push(*a);
                if let Action::DiscardBuilt { card } = *a {
                    say!(
                        text,
                        "  {} discard {}",
                        screen.number(shown.len()),
                        card_text(catalog, card, screen)
                    );
                }
            }
        }
        Phase::BuildFromDiscard { .. } => {
            // Every card is free from the pile: each says what it does, as many a line as fit.
            say!(text, "The discard pile ({} cards) — build one for free, or pass:", view.discard_size);
            let mut units = Vec::new();
            for a in legal {
                shown.push(*a);
                let number = screen.number(shown.len());
                units.push(match *a {
                    Action::BuildDiscarded { card, free_move } => {
                        let d = catalog.card(card);
                        let ship = free_move.map_or(String::new(), |f| format!(" ({} ship moves)", f.name()));
                        format!(
                            "{number} {} [{}] → {}{ship}",
                            screen.card(catalog, card),
                            d.colour,
                            card_effect(catalog, card)
                        )
                    }
                    _ => format!("{number} {}", action_line(a, 0, view.edition)),
                });
            }
            say!(text, "{}", pack_units(&units, 2, screen.width));
        }
        // A hand: its cards (the first step of the choice), each card's ways in order.
        _ => {
            for g in hand_menu(text, catalog, view, legal, screen) {
                shown.extend(g.actions);
            }
        }
    }
    // Anything the grouping missed (it should not happen) is still offered.
    for a in legal {
        if !shown.contains(a) {
            shown.push(*a);
            say!(text, "  {} {}", screen.number(shown.len()), action_line(a, me.stages + 1, view.edition));
        }
    }
    shown
}

/// One way to build the wonder stage, for the hand's heading: `free`, `2 right`, `take part:
/// 2 coins`, `naval green: 1 left`, `second effect: free`, `Age II pawn: free`.
fn way_text(pay: &Payment, extra: StageExtra) -> String {
    let mut what = Vec::new();
    if extra.alternative() {
        what.push("second effect".to_string());
    }
    if extra.pawn_age() > 0 {
        what.push(format!("Age {} pawn", roman(extra.pawn_age())));
    }
    if extra.take_part() {
        what.push("take part".to_string());
    }
    if let Some(f) = extra.naval() {
        what.push(format!("naval {f}"));
    }
    if what.is_empty() { payment_short(pay) } else { format!("{}: {}", what.join(" + "), payment_short(pay)) }
}

/// Why the acting city cannot build `card`, as the browser says it: `already built`, `needs L:
/// you make none and no neighbour sells it`, `costs 3 coins, you have 2`.
fn build_reason(catalog: &Catalog, view: &View, card: CardId) -> String {
    let acting = view.acting_city as usize;
    if view.cities.get(acting).is_some_and(|c| c.has_name(catalog, card)) {
        return "already built".into();
    }
    wonders_server::summary::card_reason(catalog, &view.cities, acting, card)
        .unwrap_or_else(|| "not allowed this turn".into())
}

/// Why the acting city cannot build its next wonder stage (`needs 2 O: you make 1 and no
/// neighbour sells it`).
fn stage_reason(catalog: &Catalog, view: &View) -> String {
    let acting = view.acting_city as usize;
    let Some(me) = view.cities.get(acting) else {
        return "not allowed this turn".into();
    };
    let stages = catalog.wonder(me.wonder).stages(me.side);
    stages
        .get(me.stages as usize)
        .and_then(|next| wonders_server::summary::cost_reason(&view.cities, acting, &next.cost, 0))
        .unwrap_or_else(|| "not allowed this turn".into())
}

/// One card of the hand and what may be done with it.
struct CardChoices {
    /// The card's text, indented: `  Baths [blue] S → 3 VP; chains to Aqueduct`.
    head: String,
    /// The card without its chains: `Baths [blue] S → 3 VP ×2`.
    brief: String,
    /// Why it cannot be built, when it cannot.
    reason: Option<String>,
    /// Its legal actions: builds, then wonder stages, then discards.
    actions: Vec<Action>,
}

impl CardChoices {
    /// What may be done with the card, in few words, for the hand's list: `build (2 right)`,
    /// `build (free, chain)`, `build (from 2 coins)` (several ways), `can't build: needs P`;
    /// then `wonder` and `discard` when it may, unless `common` (every card may: the heading says
    /// it).
    fn options(&self, common: (bool, bool)) -> String {
        let builds: Vec<&Payment> = self
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Build { pay, .. } => Some(pay),
                _ => None,
            })
            .collect();
        let mut parts = vec![match builds.as_slice() {
            [] => format!("can't build: {}", short_reason(self.reason.as_deref().unwrap_or("not now"))),
            [pay] => format!("build ({})", payment_short(pay)),
            many => match many.iter().map(|p| p.total()).min().unwrap_or(0) {
                0 => "build (free)".to_string(),
                least => format!("build (from {least} coin{})", plural(least)),
            },
        }];
        if self.stage() && !common.0 {
            parts.push("wonder".into());
        }
        if self.discard() && !common.1 {
            parts.push("discard".into());
        }
        parts.join(" / ")
    }

    /// Whether the card may build the wonder's next stage.
    fn stage(&self) -> bool {
        self.actions.iter().any(|a| matches!(a, Action::Wonder { .. }))
    }

    /// Whether the card may be discarded.
    fn discard(&self) -> bool {
        self.actions.iter().any(|a| matches!(a, Action::Discard { .. } | Action::DiscardYellow { .. }))
    }
}

/// A reason in few words, for the hand's list (its second step gives it whole): `needs P`,
/// `needs 2 S`, `costs 3 coins`, `buying costs 4` (coins, more than you have), `already built`.
fn short_reason(reason: &str) -> String {
    if let Some(rest) = reason.strip_prefix("buying its resources costs ") {
        // `4 coins, you have 3` (a cost to the bank said after it, as the second step does).
        let coins = rest.split(", you have ").next().unwrap_or(rest);
        return format!("buying costs {}", coins.split(" coin").next().unwrap_or(coins));
    }
    if reason.starts_with("needs ") {
        return reason.split(':').next().unwrap_or(reason).to_string();
    }
    // `costs 3 coins, you have 2`: the coins you have are in your city's line.
    let reason = reason.split(", you have ").next().unwrap_or(reason);
    reason.split(": ").next().unwrap_or(reason).to_string()
}

/// The hand, for the first step of the human's choice: a heading — whose hand, and how the
/// wonder's next stage can be built (or why not) — then one numbered line per card (copies
/// once): its name, colour, cost and effect, and what may be done with it
/// ([`CardChoices::options`]). Returns the cards in the order numbered.
fn hand_menu(
    text: &mut String,
    catalog: &Catalog,
    view: &View,
    legal: &[Action],
    screen: &Screen,
) -> Vec<CardChoices> {
    let Some(me) = view.cities.get(view.acting_city as usize) else {
        return Vec::new();
    };
    let stage_no = me.stages + 1;
    let mut ways: Vec<(Payment, StageExtra)> = Vec::new();
    for a in legal {
        if let Action::Wonder { pay, extra, .. } = *a
            && !ways.contains(&(pay, extra))
        {
            ways.push((pay, extra));
        }
    }
    let wonder = if me.stages >= me.stage_count(catalog) {
        "your wonder is complete".to_string()
    } else if ways.is_empty() {
        format!("wonder stage {stage_no} can't be built: {}", short_reason(&stage_reason(catalog, view)))
    } else if let [(pay, extra)] = ways.as_slice() {
        format!("build wonder stage {stage_no}: {}", way_text(pay, *extra))
    } else {
        match ways.iter().map(|(p, _)| p.total()).min().unwrap_or(0) {
            0 => format!("build wonder stage {stage_no}: free"),
            least => format!("build wonder stage {stage_no}: from {least} coin{}", plural(least)),
        }
    };
    let mut groups = Vec::new();
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
        let times = if copies > 1 { format!(" ×{copies}") } else { String::new() };
        let head = format!("  {}", card_text(catalog, card, screen));
        let builds: Vec<Action> = mine(|a| matches!(a, Action::Build { .. })).collect();
        let reason = builds.is_empty().then(|| build_reason(catalog, view, card));
        let stages = mine(|a| matches!(a, Action::Wonder { .. }));
        let discards = mine(|a| matches!(a, Action::Discard { .. } | Action::DiscardYellow { .. }));
        let actions = builds.iter().copied().chain(stages).chain(discards).collect();
        let brief = format!("{}{times}", card_brief(catalog, card, screen));
        groups.push(CardChoices { head, brief, reason, actions });
    }
    // What every card may do is said once, in the heading.
    let common = (groups.iter().all(CardChoices::stage), groups.iter().all(CardChoices::discard));
    let yellow = legal.iter().any(|a| matches!(a, Action::DiscardYellow { .. }));
    let discard = if yellow { "+3 coins or a yellow ship move" } else { "+3 coins" };
    let mut any = Vec::new();
    if common.0 {
        any.push(wonder.replacen(": ", " (", 1) + ")");
    }
    if common.1 {
        any.push(format!("be discarded ({discard})"));
    }
    let mut heading = if view.acting_city != view.seat {
        "Choose for the Free City from your hand (it builds free a card it can chain, and discards \
         only when nothing else is possible) — pick a card"
            .to_string()
    } else {
        "Your hand — pick a card".to_string()
    };
    if !any.is_empty() {
        let _ = write!(heading, "; any card can also {}", any.join(" or "));
    }
    if !common.0 {
        let _ = write!(heading, "; {wonder}");
    }
    say!(text, "{}", wrap(&format!("{heading}:"), screen.width));
    for (i, g) in groups.iter().enumerate() {
        let line = format!("  {} {} — {}", screen.number(i + 1), g.brief, g.options(common));
        say!(text, "{}", wrap(&line, screen.width));
    }
    groups
}

/// What a construction does, in one notation for every list: `build`, `build + naval red`,
/// `build + free move blue`, `wonder stage 2 (second effect) + Age II pawn + take part in the
/// great project + naval yellow`; empty for any other action.
fn construction_what(a: &Action, stage_no: u8) -> String {
    let mut what = String::new();
    match *a {
        Action::Build { naval, .. } => {
            what.push_str("build");
            if let Some(f) = naval.construction() {
                let _ = write!(what, " + naval {f}");
            }
            if let Some(f) = naval.free_move() {
                let _ = write!(what, " + free move {f}");
            }
        }
        Action::Wonder { extra, .. } => {
            let _ = write!(what, "wonder stage {stage_no}");
            if extra.alternative() {
                what.push_str(" (second effect)");
            }
            if extra.pawn_age() > 0 {
                let _ = write!(what, " + Age {} pawn", roman(extra.pawn_age()));
            }
            if extra.take_part() {
                what.push_str(" + take part in the great project");
            }
            if let Some(f) = extra.naval() {
                let _ = write!(what, " + naval {f}");
            }
        }
        _ => {}
    }
    what
}

/// One action as a choice line: `build: pay 2 left`, `wonder stage 2: free`, `discard: +3 coins`.
fn action_line(a: &Action, stage_no: u8, edition: Edition) -> String {
    match a {
        Action::Build { pay, .. } | Action::Wonder { pay, .. } => {
            format!("{}: {}", construction_what(a, stage_no), payment_text(pay))
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
/// turn `turns + 1`. Armada's Age-end conflicts and what a failed great project cost each city
/// are left to the Age-end blocks ([`armada::age_end_text`], [`edifice_age_text`]).
pub(crate) fn log_text(
    text: &mut String,
    catalog: &Catalog,
    log: &[LogEntry],
    names: &SeatNames,
    turns: u8,
    screen: &Screen,
) {
    log_with(text, catalog, log, names, turns, screen, false);
}

/// [`log_text`]; `packed`, the heading and the lines after it run on as one paragraph, ` | `
/// between the lines (for a turn short of room).
fn log_with(
    text: &mut String,
    catalog: &Catalog,
    log: &[LogEntry],
    names: &SeatNames,
    turns: u8,
    screen: &Screen,
    packed: bool,
) {
    // A failed project's consequences are told once, in the Age-end block (edifice_age_text).
    let shown = |e: &&LogEntry| match e.played {
        Played::Armada(ev) => armada::in_step_log(ev),
        Played::Edifice(ev) => !matches!(
            ev,
            EdificeEvent::Spared | EdificeEvent::Paid | EdificeEvent::Discarded(_) | EdificeEvent::Debt
        ),
        _ => true,
    };
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
    if !packed {
        say!(text, "-- {heading}:");
    }
    let n = names.len();
    // Each line with the seat it is about and whether it tells what the seat played, so that a
    // naval construction or a pawn taken with the play joins its line; and, for the losses to a
    // tax or to pirates, what was lost, so that the cities losing the same join one line.
    let mut lines: Vec<(u8, bool, String)> = Vec::new();
    let mut losses: Vec<Option<(String, String)>> = Vec::new();
    // A great project completed this step: its holders on one line, after the plays; the coins
    // of its reward are told there, not with the play.
    let completed =
        |e: &LogEntry| matches!(e.played, Played::Edifice(EdificeEvent::Rewarded(a)) if a == e.age);
    let reward_coins =
        |seat: u8| -> u16 { log.iter().filter(|o| o.seat == seat && completed(o)).map(|o| o.income).sum() };
    for e in log.iter().filter(shown).filter(|e| !completed(e)) {
        let play = matches!(e.played, Played::Built(_) | Played::Stage(_) | Played::Discarded);
        let e = &LogEntry {
            income: if play { e.income.saturating_sub(reward_coins(e.seat)) } else { e.income },
            ..*e
        };
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
        let entry = entry_text(catalog, e, names, trade, screen);
        let joins = match e.played {
            Played::Armada(ev) => ev.ship_move().is_some_and(|(_, _, cause)| {
                matches!(cause, MoveCause::Construction | MoveCause::Discard | MoveCause::Card)
            }),
            Played::Edifice(ev) => ev == EdificeEvent::TookPart,
            _ => false,
        };
        if joins && let Some(line) = lines.iter_mut().rev().find(|(seat, play, _)| *play && *seat == e.seat) {
            let who = format!("{} ", names.get(e.seat as usize));
            // `; red ship 1→2: naval 2†` (its naval construction, or its discard's), `; free move:
            // red ship 0→1: …` (its card's), `; took part in …`.
            let joined = entry.strip_prefix(&who).unwrap_or(&entry);
            let joined = ["naval construction: ", "discard: "]
                .iter()
                .find_map(|p| joined.strip_prefix(p))
                .unwrap_or(joined);
            let _ = write!(line.2, "; {joined}");
            continue;
        }
        let who = names.get(e.seat as usize);
        let lost = match e.played {
            Played::Armada(ArmadaEvent::Lost { .. }) => entry.strip_prefix(&format!("{who} lost ")),
            _ => None,
        };
        losses.push(lost.map(|what| (what.to_string(), who.to_string())));
        lines.push((e.seat, play, format!("   {entry}")));
    }
    let rewarded: Vec<String> = log
        .iter()
        .filter(|e| completed(e))
        .map(|e| {
            let coins =
                if e.income > 0 { format!(" +{} coin{}", e.income, plural(e.income)) } else { String::new() };
            format!("{}{coins}", names.get(e.seat as usize))
        })
        .collect();
    if let Some(first) = log.iter().find(|e| completed(e)) {
        let line = format!(
            "   the Age {} great project is COMPLETED; its holders gain its reward: {}",
            roman(first.age),
            rewarded.join(", ")
        );
        lines.push((first.seat, false, line));
        losses.push(None);
    }
    // The cities that lost the same, on the first one's line: `you (seat 0, …), seat 2 (…) each
    // lost 1 coin (1 to the tax)`.
    let mut k = 0;
    while k < lines.len() {
        let Some((what, _)) = losses[k].clone() else {
            k += 1;
            continue;
        };
        let same: Vec<usize> =
            (k..lines.len()).filter(|&j| losses[j].as_ref().is_some_and(|(w, _)| *w == what)).collect();
        if same.len() > 1 {
            let who: Vec<String> =
                same.iter().filter_map(|&j| losses[j].as_ref().map(|(_, w)| w.clone())).collect();
            lines[k].2 = format!("   {} each lost {what}", who.join(", "));
            for &j in same[1..].iter().rev() {
                lines.remove(j);
                losses.remove(j);
            }
        }
        k += 1;
    }
    // One tax levied: the group that lost the same to it joins its line (`seat 1 (…) levied a tax
    // of 1: you (…), seat 2 (…) each lost 1 coin`).
    let levied: Vec<usize> = (0..lines.len()).filter(|&j| lines[j].2.contains(" levied a tax of ")).collect();
    if let [tax] = levied[..]
        && let Some(group) = (tax + 1..lines.len()).find(|&j| {
            losses[j].as_ref().is_some_and(|(w, _)| w.ends_with(" to the tax)"))
                && lines[j].2.contains(" each lost ")
        })
    {
        let levier = lines[tax].2.split(" (the others").next().unwrap_or_default().to_string();
        let lost = lines[group].2.trim_start();
        let lost = lost.rsplit_once(" (").map_or(lost, |(l, _)| l);
        lines[tax].2 = format!("{levier}: {lost}");
        lines.remove(group);
        losses.remove(group);
    }
    let width = armada::WIDTH.min(screen.width);
    if packed {
        let entries: Vec<&str> = lines.iter().map(|(_, _, entry)| entry.trim_start()).collect();
        say!(text, "{}", wrap(&format!("-- {heading}: {}", entries.join(" | ")), width));
        return;
    }
    for (_, _, line) in lines {
        // Long lines (a play with its naval construction, Armada's islands and losses) wrap
        // within 80 columns, their continuation indented.
        say!(text, "{}", wrap(&line, width));
    }
}

/// One log entry: `seat 1 (Giza A) built Stockade (pay 2 left); +2 coins from trade`, `seat 2
/// (Rhodes A) discarded a card; +3 coins (discard)`, `seat 0 (Olympia B) built Tavern; +5 coins`;
/// `trade` is what the neighbours paid this city in the same step.
pub(crate) fn entry_text(
    catalog: &Catalog,
    e: &LogEntry,
    names: &SeatNames,
    trade: u16,
    screen: &Screen,
) -> String {
    let who = names.get(e.seat as usize);
    let paid = |what: String| -> String {
        if e.pay.free.is_some() {
            format!("{what}, {}", payment_text(&e.pay))
        } else if e.pay.total() > 0 {
            format!("{what} ({})", payment_text(&e.pay))
        } else {
            what
        }
    };
    let mut s = match e.played {
        Played::ChoseSide(side) => format!("{who} chose side {}", side.label(catalog.edition)),
        Played::Built(c) => paid(format!("{who} built {}", screen.card(catalog, c))),
        Played::Stage(k) => paid(format!("{who} built wonder stage {k}")),
        Played::Discarded => format!("{who} discarded a card"),
        Played::BuiltDiscarded(c) => format!("{who} built {} from the discard pile", screen.card(catalog, c)),
        Played::Passed => format!("{who} built nothing from the discard pile"),
        Played::Edifice(ev) => {
            let project = format!("the Age {} great project", roman(ev.project_age(e.age)));
            match ev {
                EdificeEvent::TookPart => format!("{who} took part in {project} (a pawn)"),
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
        let why = if e.played == Played::Discarded { " (discard)" } else { "" };
        parts.push(format!("+{own} coin{}{why}", plural(own)));
    }
    if trade > 0 {
        parts.push(format!("+{trade} coin{} from trade", plural(trade)));
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

/// The military conflicts at the end of `age`: each city's shields and the tokens it won or lost
/// (`seat 1 (Giza A): 3 → +3 -1`), two cities a line when they fit 80 columns.
pub(crate) fn military_text(
    text: &mut String,
    game: &Game,
    age: u8,
    before: &[MilitaryTokens],
    names: &SeatNames,
) {
    say!(text, "== End of Age {}: military conflicts (shields → tokens won or lost) ==", roman(age));
    let entries: Vec<String> = game
        .cities()
        .iter()
        .enumerate()
        .map(|(index, city)| {
            let old = before.get(index).copied().unwrap_or_default();
            let t = city.tokens;
            let mut tokens: Vec<&str> = Vec::new();
            for (now, then, value) in [
                (t.plus1, old.plus1, "+1"),
                (t.plus3, old.plus3, "+3"),
                (t.plus5, old.plus5, "+5"),
                (t.minus1, old.minus1, "-1"),
            ] {
                tokens.extend(std::iter::repeat_n(value, now.saturating_sub(then) as usize));
            }
            let tokens = if tokens.is_empty() { "none".to_string() } else { tokens.join(" ") };
            format!("{}: {} → {tokens}", names.get(index), city.shields)
        })
        .collect();
    // Two columns (cities 0, 2, 4… on the left) when both fit.
    let width = |e: &String| crate::output::display_width(e);
    let left = entries.iter().step_by(2).map(width).max().unwrap_or(0);
    let right = entries.iter().skip(1).step_by(2).map(width).max().unwrap_or(0);
    if 3 + left + 3 + right <= armada::WIDTH {
        for pair in entries.chunks(2) {
            let pad = " ".repeat(left - width(&pair[0]));
            match pair {
                [one, two] => say!(text, "   {one}{pad}   {two}"),
                [one] => say!(text, "   {one}"),
                _ => {}
            }
        }
    } else {
        for e in &entries {
            say!(text, "   {e}");
        }
    }
}

/// The end of `age` in short, when the turn after it has no room for the full blocks: a heading,
/// the great project's outcome (Edifice), then one line per city — its shields and the land
/// tokens it won or lost, its naval strength and naval token (Armada), what the project did to it
/// (Edifice) — and one line per incursion: `you (seat 0, Giza A): 1 → +1 -1; naval 2 → +3;
/// paid`.
pub(crate) fn age_end_short(
    game: &Game,
    age: u8,
    before: &[MilitaryTokens],
    names: &SeatNames,
    screen: &Screen,
) -> String {
    let catalog = game.catalog();
    let armada = game.armada().is_some();
    let events: Vec<&LogEntry> = game.history().iter().filter(|e| e.age == age).collect();
    let mut text = String::new();
    let naval = if armada { "; naval strength → token" } else { "" };
    say!(text, "== End of Age {}: shields → land tokens won or lost{naval} ==", roman(age));
    let project = match (game.edifice(), catalog.edifice.as_deref()) {
        (Some(state), Some(data)) if (1..=3).contains(&age) => {
            let a = age as usize - 1;
            let p = data.project(state.projects[a]);
            match state.outcome[a] {
                Outcome::Completed => Some(format!(
                    "   great project {} COMPLETED; its holders gain: {}",
                    p.name,
                    p.reward_text()
                )),
                Outcome::Failed => Some(format!(
                    "   great project {} FAILED; the cities without a pawn: {}",
                    p.name, p.penalty
                )),
                Outcome::Open => None,
            }
            .map(|line| (line, data.debt_points(age)))
        }
        _ => None,
    };
    let debt_points = project.as_ref().map_or(0, |(_, d)| *d);
    if let Some((line, _)) = &project {
        say!(text, "{}", wrap(line, screen.width));
    }
    let mut entries = Vec::new();
    for (index, city) in game.cities().iter().enumerate() {
        let old = before.get(index).copied().unwrap_or_default();
        let t = city.tokens;
        let mut tokens: Vec<&str> = Vec::new();
        for (now, then, value) in [
            (t.plus1, old.plus1, "+1"),
            (t.plus3, old.plus3, "+3"),
            (t.plus5, old.plus5, "+5"),
            (t.minus1, old.minus1, "-1"),
        ] {
            tokens.extend(std::iter::repeat_n(value, now.saturating_sub(then) as usize));
        }
        let tokens = if tokens.is_empty() { "none".to_string() } else { tokens.join(" ") };
        let mut parts = vec![format!("{}: {} → {tokens}", names.short(index), city.shields)];
        for e in events.iter().filter(|e| e.seat as usize == index) {
            match e.played {
                Played::Armada(ArmadaEvent::Naval { strength, token }) => {
                    let token = if token == 0 { "none".to_string() } else { format!("{token:+}") };
                    parts.push(format!("naval {strength} → {token}"));
                }
                Played::Armada(ArmadaEvent::StayedOut) => parts.push("stayed out of the naval".into()),
                Played::Edifice(ev) => match ev {
                    EdificeEvent::Spared => parts.push("spared (pawn)".into()),
                    EdificeEvent::Paid => parts.push("paid".into()),
                    EdificeEvent::Discarded(c) => parts.push(format!("discarded {}", catalog.card(c).name)),
                    EdificeEvent::Debt => parts.push(format!("debt token (-{debt_points} VP)")),
                    EdificeEvent::Rewarded(a) if a == age => {
                        let coins =
                            if e.income > 0 { format!(" (+{} coins)", e.income) } else { String::new() };
                        parts.push(format!("rewarded{coins}"));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        entries.push(parts.join("; "));
    }
    say!(text, "{}", columns(&entries, 3, screen.width));
    for e in &events {
        let Played::Armada(ev @ ArmadaEvent::Incursion { target, .. }) = e.played else {
            continue;
        };
        let line = format!(
            "   incursion {} → {}: {}",
            names.short(e.seat as usize),
            names.short(target as usize),
            armada::incursion_outcome(game, e.seat as usize, ev, age, ", ")
        );
        say!(text, "{}", wrap(&line, screen.width));
    }
    text
}

/// `entries` in as many columns as fit `width` (at most 3), filled row by row, each line
/// indented by `indent` and the columns 3 spaces apart; one a line when even two do not fit. No
/// newline at the end.
fn columns(entries: &[String], indent: usize, width: usize) -> String {
    let widths: Vec<usize> = entries.iter().map(|e| crate::output::display_width(e)).collect();
    let cols = (1..=3)
        .rev()
        .find(|&k| {
            let col: Vec<usize> =
                (0..k).map(|c| widths.iter().skip(c).step_by(k).copied().max().unwrap_or(0)).collect();
            indent + col.iter().sum::<usize>() + 3 * (k - 1) <= width
        })
        .unwrap_or(1);
    let col: Vec<usize> =
        (0..cols).map(|c| widths.iter().skip(c).step_by(cols).copied().max().unwrap_or(0)).collect();
    let mut lines = Vec::new();
    for (row, chunk) in entries.chunks(cols).enumerate() {
        let mut line = " ".repeat(indent);
        for (c, e) in chunk.iter().enumerate() {
            line.push_str(e);
            if c + 1 < chunk.len() {
                line.push_str(&" ".repeat(col[c] - widths[row * cols + c] + 3));
            }
        }
        lines.push(wrap(&line, width));
    }
    lines.join("\n")
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
    use wonders_core::Expansions;

    fn args(seat: usize, auto: bool) -> PlayArgs {
        PlayArgs {
            players: 3,
            edition: Edition::First,
            seat,
            seed: Some(11),
            record: None,
            auto,
            bots: "random".into(),
            hints: false,
            exp: ExpansionArgs::default(),
        }
    }

    /// `h` at a prompt: with `--hints`, the search bot's three preferred moves with the share of
    /// its sampled games each wins, the first being the move the search bot plays; without, how
    /// to turn hints on. The prompt comes back and the game goes on.
    #[test]
    fn a_hint_names_the_search_bots_preferred_moves() {
        let mut out = Vec::new();
        let off = args(0, false);
        play(&off, &mut Cursor::new("h\n".to_string() + &"1\n".repeat(300)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Hints are off: start the game with --hints"), "{text}");

        let on = PlayArgs { hints: true, ..args(0, false) };
        let mut out = Vec::new();
        play(&on, &mut Cursor::new("h\n".to_string() + &"1\n".repeat(300)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let at = text.find("Hint — the search bot's preferred moves (2000 sampled games):").expect("a hint");
        let lines: Vec<&str> = text[at..].lines().skip(1).take(3).collect();
        let mut total = 0;
        for (i, l) in lines.iter().enumerate() {
            assert!(l.starts_with(&format!("  {}. ", i + 1)), "{l}");
            let games: u32 = l.rsplit(" of ").next().unwrap().trim_end_matches(" games").parse().unwrap();
            let share: u32 = l.split(" — wins ").nth(1).unwrap().split('%').next().unwrap().parse().unwrap();
            assert!(share <= 100 && games > 0, "{l}");
            total += games;
        }
        assert!(total <= 2000, "{lines:?}");
        // The first is the search bot's own choice in this position.
        let game = Game::new(&setup_for(Edition::First, 3, 11)).unwrap();
        let mut legal = Vec::new();
        game.legal_actions_into(0, &mut legal);
        let config = wonders_bots::coach::config(HINT_SAMPLES);
        let view = game.view(0);
        let seed = 0x4849_4E54 ^ (1u64 << 8) ^ 1;
        let best = wonders_bots::SearchBot::new(config, seed).choose(&view, &legal);
        assert!(lines[0].contains(&advice_label(game.catalog(), &best, 1)), "{lines:?}");
        // The prompt comes back, and the game ends.
        assert!(text[at..].contains("Your choice ("), "{text}");
        assert!(text.contains("Final scores:"));
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
            entry_text(catalog, &entry(1, EdificeEvent::Rewarded(1)), &names, 0, &Screen::PLAIN),
            format!("the Age I great project is COMPLETED: {who} gains its reward; +4 coins")
        );
        assert_eq!(
            entry_text(catalog, &entry(2, EdificeEvent::Rewarded(1)), &names, 0, &Screen::PLAIN),
            format!(
                "{who} joins the Age I great project, completed, with an Ur pawn and gains its reward; +4 coins"
            )
        );
    }

    /// A 3-player 1st-edition game with these boards on side A (seat 0 is the first).
    fn chosen(wonders: &[&str]) -> Game {
        let setup = Setup::new(wonders.len() as u8, 1);
        let cat = setup.catalog();
        let chosen =
            wonders.iter().map(|w| (cat.find_wonder(w).unwrap(), Some(wonders_core::Side::A))).collect();
        Game::new(&Setup { wonders: wonders_core::WonderDeal::Chosen(chosen), ..setup }).unwrap()
    }

    #[test]
    fn an_unbuildable_card_and_stage_say_why_as_the_browser_does() {
        // Giza (S) between Olympia (W, left) and Rhodes (O, right), with Lumber Yard built and no
        // coin: Scriptorium needs a papyrus nobody makes; Timber Yard costs a coin; Lumber Yard
        // is built already; Giza's first stage (SS) lacks a stone nobody sells.
        let mut g = chosen(&["Giza", "Olympia", "Rhodes"]);
        let cat = g.catalog();
        let card = |name: &str| cat.find_card(name).unwrap();
        g.city_mut(0).place(cat, card("Lumber Yard"));
        g.city_mut(0).coins = 0;
        g.set_hand(0, &[card("Scriptorium"), card("Timber Yard"), card("Lumber Yard"), card("Baths")]);
        let (view, legal) = (g.view(0), g.legal_actions(0));
        let names = SeatNames::new(&g, Some(0));
        let mut text = String::new();
        let groups = hand_menu(&mut text, cat, &view, &legal, &Screen::PLAIN);
        assert_eq!(groups.iter().map(|g| g.actions.len()).sum::<usize>(), legal.len());
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "Your hand — pick a card; any card can also be discarded (+3 coins); wonder stage",
                "  1 can't be built: needs 2 S:",
                "  [1] Scriptorium [green] P → tablet — can't build: needs P",
                "  [2] Timber Yard [brown] 1 coin → W/S — can't build: costs 1 coin",
                "  [3] Lumber Yard [brown] free → W — can't build: already built",
                "  [4] Baths [blue] S → 3 VP — build (free)",
            ]
        );
        // The second step gives the whole reason, and the card's one way: its discard.
        let (ways, grouped) = card_ways(&view, &groups[0], &names, &Screen::PLAIN);
        assert!(grouped.is_none());
        assert_eq!(
            ways,
            "Scriptorium [green] P → tablet; chains to Courthouse, Library:\n  can't build: needs P: \
             you make none and no neighbour sells it\n  [1] discard: +3 coins\n  [0] back to the hand\n"
        );
        assert!(!text.contains("afford"), "{text}");
    }

    #[test]
    fn each_way_to_build_a_stage_says_whom_it_pays() {
        // Rhodes A's first stage (WW), its wood bought from Olympia (W and a Lumber Yard, left)
        // or Giza (a Lumber Yard, right) at 2 coins a unit: 4 left, or 2 left + 2 right.
        let mut g = chosen(&["Rhodes", "Olympia", "Giza"]);
        let cat = g.catalog();
        let card = |name: &str| cat.find_card(name).unwrap();
        g.city_mut(2).place(cat, card("Lumber Yard"));
        g.city_mut(1).place(cat, card("Lumber Yard"));
        g.city_mut(0).coins = 10;
        g.set_hand(0, &[card("Baths"), card("Altar")]);
        let (view, legal) = (g.view(0), g.legal_actions(0));
        let names = SeatNames::new(&g, Some(0));
        let mut text = String::new();
        let groups = hand_menu(&mut text, cat, &view, &legal, &Screen::PLAIN);
        assert!(
            text.starts_with(
                "Your hand — pick a card; any card can also build wonder stage 1 (from 4 coins)\n  or be \
                 discarded (+3 coins):\n  [1] Baths [blue] S → 3 VP — build (2 right)\n"
            ),
            "{text}"
        );
        assert!(text.contains("  [2] Altar [blue] free → 2 VP — build (free)\n"), "{text}");
        let (ways, _) = card_ways(&view, &groups[1], &names, &Screen::PLAIN);
        let lines: Vec<&str> = ways.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "  [1] build: free",
                "  [2] wonder stage 1: pay 2 to seat 1 (left) + 2 to seat 2 (right)",
                "  [3] wonder stage 1: pay 4 to seat 1 (left)",
                "  [4] discard: +3 coins",
                "  [0] back to the hand",
            ],
            "{ways}"
        );
        let stage_ways = legal
            .iter()
            .filter(|a| matches!(a, Action::Wonder { card, .. } if *card == card_of(&legal)))
            .count();
        assert_eq!(stage_ways, 2);
    }

    /// The card of the first wonder action.
    fn card_of(legal: &[Action]) -> CardId {
        legal
            .iter()
            .find_map(|a| if let Action::Wonder { card, .. } = a { Some(*card) } else { None })
            .unwrap()
    }

    #[test]
    fn card_names_take_their_colour_only_on_a_terminal() {
        let a = args(0, false);
        let mut plain = Vec::new();
        play(&a, &mut Cursor::new("1\n".repeat(40)), true, &mut plain).unwrap();
        let plain = String::from_utf8(plain).unwrap();
        assert!(!plain.contains('\x1b'), "piped output has no escapes");
        let mut coloured = Vec::new();
        let screen = Screen { colour: true, ..Screen::PLAIN };
        play_on(&a, &mut Cursor::new("1\n".repeat(40)), true, &mut coloured, screen).unwrap();
        let coloured = String::from_utf8(coloured).unwrap();
        // Blue cards in blue (256-colour 33), the same text once the escapes are taken out, and
        // the same line breaks: escapes take no room.
        assert!(coloured.contains("\x1b[38;5;33m"), "{coloured}");
        let stripped: String = coloured
            .split('\x1b')
            .enumerate()
            .map(|(i, part)| if i == 0 { part } else { part.split_once('m').map_or("", |(_, rest)| rest) })
            .collect();
        assert_eq!(stripped, plain);
    }

    #[test]
    fn an_armada_card_says_what_it_does() {
        // Seamen's Academy's only effect is Armada's: the top level-1 island (000 海員學院).
        let catalog = Catalog::with_builtin_armada(Edition::First, false);
        let text = card_text(catalog, catalog.find_card("Seamen's Academy").unwrap(), &Screen::PLAIN);
        assert!(text.contains("→ top level-1 island into play†"), "{text}");
        // A base card reads as in a game without Armada.
        let baths = catalog.find_card("Baths").unwrap();
        assert_eq!(card_text(catalog, baths, &Screen::PLAIN), "Baths [blue] S → 3 VP; chains to Aqueduct");
    }

    #[test]
    fn an_armada_game_shows_every_shipyard() {
        let mut a = args(0, false);
        a.exp.expansions = wonders_core::Expansions::ARMADA;
        let mut out = Vec::new();
        play(&a, &mut Cursor::new("1\n".repeat(60)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let first = &text[..text.find("Your hand — ").unwrap()];
        let yards: Vec<&str> =
            first.lines().filter(|l| l.starts_with("  shipyard ") || l.contains("ships (of 6): ")).collect();
        assert_eq!(yards.len(), 3, "the human's and both neighbours': {first}");
        // Every ship on its start space (000 遊戲準備 6), and exactly one fleet per board carries
        // the wonder symbol `*`: the human's has two ships a line, each with the next step's
        // cost and what that step gives, each neighbour's their steps on its line.
        assert!(yards[0].ends_with("naval strength 0, trade level 0"), "{}", yards[0]);
        let ships: Vec<&str> = first.lines().filter(|l| l.starts_with("    ")).collect();
        assert_eq!(ships.len(), 2, "{first}");
        assert_eq!(ships.iter().map(|l| l.matches('*').count()).sum::<usize>(), 1);
        assert_eq!(ships.iter().map(|l| l.matches(" 0/6, next ").count()).sum::<usize>(), 4, "{ships:?}");
        for y in &yards[1..] {
            assert!(y.contains("naval 0, trade 0"), "{y}");
            assert_eq!(y.matches('*').count(), 1, "{y}");
            let ships =
                y.split("ships (of 6): ").nth(1).and_then(|r| r.split(';').next()).unwrap_or_default();
            assert_eq!(ships.matches(" 0").count(), 4, "{y}");
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
        assert!(text.contains("take part: ") && text.contains('†'), "provisional values are marked");
        assert!(text.contains("COMPLETED") || text.contains("FAILED"));
        assert!(text.contains("edifice"), "the score sheet has the category");
        // The human's city and both neighbours say which pawns and debt tokens they hold.
        let first = &text[text.find("=== Age I, turn 1").unwrap()..text.find("Your hand — ").unwrap()];
        assert_eq!(first.matches("; no pawn").count(), 3, "{first}");
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

    /// The screens of a game played on a terminal of `screen`'s size, always answering `1` (and
    /// Enter at the end of an Age): the lines from one answer to the next prompt, that prompt
    /// included.
    fn screens(args: &PlayArgs, screen: Screen) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        play_on(args, &mut Cursor::new("1\n".repeat(3000)), true, &mut out, screen).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut screens = vec![Vec::new()];
        for line in text.lines() {
            screens.last_mut().unwrap().push(line.to_string());
            if line.contains("q to quit): ") {
                screens.push(Vec::new());
            }
        }
        screens.pop();
        screens
    }

    /// On a terminal, one turn fits an 80×45 screen: the last step's log, the situation, the hand
    /// (card first) and the prompt, the city in short when the screen is short of room; each
    /// Age's conflicts keep a screen of their own until Enter, and so does a busy turn's log
    /// (Armada's explorations, taxes and free moves) when it leaves no room for the turn. Every
    /// screen fits, at every table size, with the expansions and in teams.
    #[test]
    fn one_turn_fits_an_80_by_45_terminal() {
        let screen = Screen { pause: true, ..Screen::PLAIN };
        let both = Expansions(Expansions::ARMADA.0 | Expansions::EDIFICE.0);
        let (mut hands, mut busy) = (0, 0);
        for (players, expansions, teams, seed) in [
            (3, Expansions::NONE, false, 2),
            (5, Expansions::NONE, false, 4),
            (7, Expansions::NONE, false, 5),
            (7, Expansions::NONE, false, 3),
            (6, Expansions::NONE, true, 3),
            (7, Expansions::EDIFICE, false, 3),
            (7, Expansions::EDIFICE, false, 8),
            (7, both, false, 1),
            (7, both, false, 2),
            (6, both, true, 4),
            (7, Expansions::ARMADA, false, 3),
            (8, Expansions::ARMADA, true, 1),
        ] {
            let args = PlayArgs {
                players,
                seed: Some(seed),
                bots: "heuristic".into(),
                exp: ExpansionArgs { expansions, teams, ..ExpansionArgs::default() },
                ..args(0, false)
            };
            let screens = screens(&args, screen);
            let what = format!("{players} players, {:?}, teams {teams}, seed {seed}", expansions.names());
            let ages = screens
                .iter()
                .filter(|s| s.last().is_some_and(|l| l.starts_with("Press Enter for Age")))
                .count();
            assert_eq!(ages, 2, "{what}: a pause after Ages I and II");
            for s in &screens {
                assert!(s.iter().all(|l| crate::output::display_width(l) <= 80), "{what}: {}", s.join("\n"));
                assert!(s.len() <= 45, "{what}: {} lines\n{}", s.len(), s.join("\n"));
            }
            hands += screens.iter().filter(|s| s.last().is_some_and(|l| l.starts_with("Your card"))).count();
            busy += screens
                .iter()
                .filter(|s| s.last().is_some_and(|l| l.starts_with("Press Enter for your turn")))
                .count();
        }
        assert!(hands > 0, "hands are offered card first");
        assert!(busy > 0, "some busy logs keep a screen of their own");
    }

    /// A hand is chosen card first: one line per card, then the card's ways in full (a naval
    /// construction saying what its step gives, each payment whom it pays) and `0` back to the
    /// hand; `3.2` at the card prompt takes card 3's 2nd way at once.
    #[test]
    fn a_hand_is_chosen_card_first_then_a_way() {
        let args = PlayArgs {
            players: 7,
            seed: Some(2),
            bots: "heuristic".into(),
            exp: ExpansionArgs { expansions: Expansions::ARMADA, ..ExpansionArgs::default() },
            ..args(0, false)
        };
        let mut out = Vec::new();
        // The first card, back to the hand, the first card again, its first way; then the 2nd
        // way of the 1st card at once, out of range first; then `1`s.
        let input = "1
0
1
1
1.99
1.2
"
        .to_string()
            + &"1
"
            .repeat(3000);
        play_on(&args, &mut Cursor::new(input), true, &mut out, Screen { pause: true, ..Screen::PLAIN })
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let at = text.find(" — pick a card").expect("a hand");
        let block = &text[text[..at].rfind('\n').unwrap() + 1..];
        let block = block[..block.find("Your card (").unwrap()].replace("\n    ", " ");
        let menu: Vec<&str> = block.lines().skip_while(|l| !l.starts_with("  [1] ")).collect();
        assert!(menu.len() >= 2, "{menu:?}");
        // Every card says how it can be built, or why not.
        assert!(menu.iter().all(|l| l.contains(" — build (") || l.contains(" — can't build: ")), "{menu:?}");
        let second = &text[at..];
        let options = &second[second.find("Your card (").unwrap()..];
        let options = &options[..options.find("Your choice (").unwrap()];
        assert!(options.contains("  [0] back to the hand"), "{options}");
        assert!(options.contains("discard: +3 coins"), "{options}");
        assert!(options.contains("discard: free move of the yellow ship"), "{options}");
        // `0` showed the hand again: the menu's first line once more before the next choice.
        let after_back = &second[second.find("[0] back to the hand").unwrap()..];
        assert!(after_back.contains(menu[0]), "{after_back}");
        // `1.99`: the card has fewer ways; `1.2` is taken without a second prompt.
        assert!(text.contains("1.99\ncard 1 has ways 1 to "), "{text}");
        let direct = &text[text.find("1.2\n").unwrap()..];
        assert!(direct[4..].starts_with("-- Age I, turn 2"), "{direct}");
        // A naval construction says what its step gives; a payment names whom it pays.
        assert!(text.contains(" + naval ") && text.contains(" ship 0→1: "), "{text}");
        assert!(text.contains(" to seat 1 (left)") || text.contains(" to seat 6 (right)"), "{text}");
    }

    /// A card with more ways than the screen holds: the kinds of play first, then how to pay for
    /// the one chosen; the way taken is the one the log then shows.
    #[test]
    fn too_many_ways_are_chosen_by_kind_then_payment() {
        // 4 players with Armada, seed 8: in Age III the first card of the hand is Admiralty
        // (WSOL, a free move of any ship), built with a free move of each ship, a naval
        // construction, or the wonder stage, most in several ways to pay.
        let args = PlayArgs {
            players: 4,
            seed: Some(8),
            bots: "heuristic".into(),
            exp: ExpansionArgs { expansions: Expansions::ARMADA, ..ExpansionArgs::default() },
            ..args(0, false)
        };
        let mut out = Vec::new();
        play(&args, &mut Cursor::new("1\n".repeat(3000)), true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let at = text.find("; how to pay:").expect("a card with too many ways");
        let kinds = &text[text[..at].rfind("Your card (").unwrap()..at];
        assert!(kinds.contains("\n  [1] build + free move red — 2 ways to pay, from 4 coins\n"), "{kinds}");
        assert!(kinds.contains("  [0] back to the hand\n"), "{kinds}");
        assert!(kinds.lines().count() <= 45, "{kinds}");
        let pays = &text[at..text[at..].find("-- Age").unwrap() + at];
        assert_eq!(
            pays.lines().collect::<Vec<_>>(),
            [
                "; how to pay:",
                "  [1] pay 2 to seat 1 (left) + 2 to seat 3 (right)",
                "  [2] pay 4 to seat 1 (left)",
                "  [0] back to the card",
                "How to pay (0-2, c: every city, q to quit): 1",
            ]
        );
        // The first way of the first kind: 2 to each neighbour, and the red ship's free move.
        let log = &text[at..];
        assert!(
            log.contains(
                "\n   you (seat 0, Alexandria B) built Admiralty (pay 2 right + 2 left); +2 coins\n     from \
                 trade; free move: red ship 0→1: naval 1†\n"
            ),
            "{log}"
        );
    }

    /// `c` at a prompt shows every city in full, then the choices again, and the prompt comes back.
    #[test]
    fn c_shows_every_city_then_the_choices_again() {
        let mut out = Vec::new();
        play(&args(0, false), &mut Cursor::new("c\n".to_string() + &"1\n".repeat(300)), true, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let after = &text[text.find("q to quit): c\n").expect("a c answer") + "q to quit): c\n".len()..];
        let again = &after[..after.find("q to quit): ").unwrap()];
        assert!(again.starts_with("=== Age I, turn 1 (cards pass left) — you (seat 0, "), "{again}");
        assert!(again.contains("\nLeft: seat 1 (") && again.contains("\nRight: seat 2 ("), "{again}");
        assert!(
            again.contains("\nYour hand — pick a card") && again.ends_with("Your card (1-7, c: every city, ")
        );
        assert!(text.contains("Final scores:"));
    }

    /// A list longer than the room is cut into pages at choices, never inside one, each page
    /// saying how to see the next.
    #[test]
    fn a_long_list_is_given_a_page_at_a_time() {
        let mut menu = "The discard pile (30 cards) — build one for free, or pass:\n".to_string();
        for k in 1..=30 {
            menu.push_str(&format!("  [{k}] Card {k} [blue] → 3 VP\n"));
            if k % 5 == 0 {
                menu.push_str("    and a second line\n");
            }
        }
        assert_eq!(pages_of(&menu, 40), vec![menu.clone()], "it fits: one page");
        let pages = pages_of(&menu, 12);
        assert_eq!(pages.len(), 4, "{pages:?}");
        for (i, page) in pages.iter().enumerate() {
            assert!(page.lines().count() <= 12, "{page}");
            assert!(!page.lines().next().unwrap().starts_with("    "), "{page}");
            let note = format!("(page {} of 4 of the choices; m for the next page)", i + 1);
            assert_eq!(page.lines().last(), Some(note.as_str()));
        }
        let all: String = pages.concat();
        for k in 1..=30 {
            assert_eq!(all.matches(&format!("[{k}] ")).count(), 1, "[{k}]");
        }
        assert_eq!(all.matches("and a second line").count(), 6);
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
        assert!(out.contains("Your hand — pick a card"));
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
        log_text(&mut text, catalog, &[built, discarded], &names, 6, &Screen::PLAIN);
        assert!(text.contains("+3 coins (discard), +2 coins from trade"), "{text}");
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
                        situation_with(
                            &mut text,
                            game.catalog(),
                            &view,
                            &names,
                            &Screen::PLAIN,
                            Detail::Full,
                        );
                        let names = SeatNames::new(&game, Some(seat));
                        let shown =
                            choice_list(&mut text, game.catalog(), &view, &legal, &names, &Screen::PLAIN);
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
