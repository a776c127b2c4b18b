//! How `wonders play` lays its text out for its reader: the width every line fits, the card
//! names in their card's colour on a terminal (never in a pipe, nor with `NO_COLOR`), lines
//! packed with as many parts as fit, and the short texts of cards, effects and
//! payments that make a whole turn fit an 80×45 terminal. Resources are written as their letters
//! everywhere (W S C O G L P, `W/S` for one of several), as the legend at the start says.

use super::plural;
use crate::output::display_width;
use std::fmt::Write as _;
use wonders_core::{CardDef, CardId, Catalog, Colour, Counted, Effect, FreeBy, Payment, Scope};

/// The resources' legend, printed once at the start.
pub(crate) const LEGEND: &str =
    "Resources: W wood S stone C clay O ore G glass L loom P papyrus; W/S: W or S";

/// Where the text goes: its width and whether it may be coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Screen {
    /// The columns every line fits.
    pub(crate) width: usize,
    /// Whether card names (and choice numbers) are coloured with terminal escapes.
    pub(crate) colour: bool,
    /// The lines one screen holds: a hand whose choices would push the start of the turn off it
    /// is offered card first (the card, then what to do with it).
    pub(crate) height: usize,
    /// Whether the end of an Age waits for Enter before the next Age's first turn, so that its
    /// conflicts have a screen of their own (on a terminal; never when the answers come from a
    /// pipe or a file).
    pub(crate) pause: bool,
    /// Whether the player may ask the search bot for a hint (`h` at a prompt; `--hints`).
    pub(crate) hints: bool,
}

impl Screen {
    /// 80 columns, no colour: a pipe, a file, the tests.
    #[cfg(test)]
    pub(crate) const PLAIN: Screen =
        Screen { width: 80, colour: false, height: 45, pause: false, hints: false };

    /// Standard output's: the terminal's width, height and colour on a terminal (unless
    /// `NO_COLOR` is set), 80×45 and no colour otherwise; pauses at the end of an Age when the
    /// answers are typed (`typed`: standard input is a terminal).
    pub(crate) fn stdout(typed: bool) -> Screen {
        Screen {
            width: crate::output::width(),
            colour: crate::output::colour(),
            height: crate::output::height(),
            pause: typed,
            hints: false,
        }
    }

    fn styled(&self, text: &str, style: console::Style) -> String {
        if self.colour { style.force_styling(true).apply_to(text).to_string() } else { text.to_string() }
    }

    /// `text` in the colour of a card of `colour`.
    pub(crate) fn painted(&self, text: &str, colour: Colour) -> String {
        let style = console::Style::new();
        let style = match colour {
            Colour::Brown => style.color256(130),
            Colour::Grey => style.color256(246),
            Colour::Blue => style.color256(33),
            Colour::Yellow => style.color256(178),
            Colour::Red => style.color256(160),
            Colour::Green => style.color256(34),
            Colour::Purple => style.color256(134),
        };
        self.styled(text, style)
    }

    /// A card's name in its colour.
    pub(crate) fn card(&self, catalog: &Catalog, card: CardId) -> String {
        let d = catalog.card(card);
        self.painted(&d.name, d.colour)
    }

    /// A choice's number, `[3]` (bold on a terminal).
    pub(crate) fn number(&self, n: usize) -> String {
        self.styled(&format!("[{n}]"), console::Style::new().bold())
    }

    /// A heading, bold on a terminal.
    pub(crate) fn bold(&self, text: &str) -> String {
        self.styled(text, console::Style::new().bold())
    }
}

/// Wraps every line of `text` wider than `width` columns at spaces; continuation lines keep the
/// line's indentation plus two spaces. A word longer than the width stays whole. Widths are
/// display columns: a Chinese character (islands', projects' names) takes two, a colour escape
/// none.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if display_width(line) <= width {
            out.push_str(line);
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let cont = " ".repeat(indent + 2);
        let mut col = 0;
        let mut first = true;
        for word in line.trim_start().split(' ') {
            let w = display_width(word);
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

/// Joins `parts` with `; ` into lines of at most `width` columns, breaking only between parts
/// (a part wider than a line wraps at words); the lines after the first are indented by 2. No
/// newline at the end.
pub(crate) fn pack(parts: &[String], width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut at = 0;
    for part in parts {
        let w = display_width(part);
        if line.is_empty() {
            line = part.clone();
            at = w;
        } else if at + 2 + w <= width {
            line.push_str("; ");
            line.push_str(part);
            at += 2 + w;
        } else {
            lines.push(std::mem::take(&mut line));
            line = format!("  {part}");
            at = 2 + w;
        }
    }
    lines.push(line);
    wrap(&lines.join("\n"), width)
}

/// A payment in few words, for a choice: `free`, `free, chain`, `1 right + 2 left`, `1 coin`
/// (to the bank), `1 to the 2nd left` (Armada's trading zones).
pub(crate) fn payment_short(pay: &Payment) -> String {
    match pay.free {
        Some(FreeBy::Chain) => return "free, chain".into(),
        Some(FreeBy::FreeBuild) => return "free, Olympia".into(),
        Some(FreeBy::FirstOfColour) => return "free, 1st of its colour".into(),
        Some(FreeBy::FirstOfAge) => return "free, 1st of the Age".into(),
        Some(FreeBy::LastOfAge) => return "free, last of the Age".into(),
        None => {}
    }
    // In the log's order (`pay 1 right + 2 left`).
    let mut parts = Vec::new();
    if pay.right > 0 {
        parts.push(format!("{} right", pay.right));
    }
    if pay.left > 0 {
        parts.push(format!("{} left", pay.left));
    }
    if pay.second.left() > 0 {
        parts.push(format!("{} to the 2nd left", pay.second.left()));
    }
    if pay.second.right() > 0 {
        parts.push(format!("{} to the 2nd right", pay.second.right()));
    }
    if pay.bank > 0 {
        parts.push(format!("{} coin{}", pay.bank, plural(pay.bank as u16)));
    }
    if parts.is_empty() { "free".into() } else { parts.join(" + ") }
}

/// A card's cost: `free`, `1 coin`, `WWO`, `1 coin + SP`.
pub(crate) fn cost_short(d: &CardDef) -> String {
    let coins = format!("{} coin{}", d.coins, plural(d.coins as u16));
    match (d.coins, d.cost.is_empty()) {
        (0, true) => "free".into(),
        (_, true) => coins,
        (0, false) => d.cost.to_string(),
        (_, false) => format!("{coins} + {}", d.cost),
    }
}

/// An effect in few words, resources as letters: `buy W/S/C/O from the right for 1 coin`,
/// `2 coins per grey card (yours + neighbours')`, `1 VP per brown card` (yours); the others as
/// the core writes them.
pub(crate) fn effect_short(e: &Effect) -> String {
    let counted = |c: Counted| match c {
        Counted::Colours(mask) => {
            let colours: Vec<&str> =
                Colour::ALL.iter().filter(|c| mask & (1 << **c as u8) != 0).map(|c| c.name()).collect();
            format!("{} card", colours.join("/"))
        }
        Counted::WonderStages => "wonder stage".into(),
        Counted::Defeats => "defeat token".into(),
    };
    let scope = |s: Scope| match (s.own, s.neighbours) {
        (true, true) => " (yours + neighbours')",
        (false, true) => " (neighbours')",
        _ => "",
    };
    match *e {
        Effect::TradeDiscount { resources, sides } => {
            let side = match (sides.left, sides.right) {
                (true, true) => "both neighbours",
                (true, false) => "the left",
                _ => "the right",
            };
            let what: Vec<String> = resources.iter().map(|r| r.letter().to_string()).collect();
            format!("buy {} from {side} for 1 coin", what.join("/"))
        }
        Effect::Coins(n) => format!("{n} coin{}", plural(n as u16)),
        Effect::CoinsPer { what, scope: s, coins } => {
            format!("{coins} coin{} per {}{}", plural(coins as u16), counted(what), scope(s))
        }
        Effect::CoinsAndPointsPer { what, coins, points } => {
            format!("{coins} coin{} + {points} VP per {}", plural(coins as u16), counted(what))
        }
        Effect::PointsPer { what, scope: s, points } => {
            format!("{points} VP per {}{}", counted(what), scope(s))
        }
        _ => e.to_string(),
    }
}

/// What a card does: `3 VP`, `WW` (a brown or grey card's production), `buy W/S/C/O from the
/// right for 1 coin`, an Armada card's effects marked `†` when provisional.
pub(crate) fn card_effect(catalog: &Catalog, card: CardId) -> String {
    let d = catalog.card(card);
    // An Armada card's effects (its base-game ones included) come from the Armada data.
    match (catalog.armada_card(card), catalog.armada.as_deref()) {
        (Some(a), Some(data)) => {
            let def = data.card(a);
            let texts: Vec<String> = def.effects.iter().map(ToString::to_string).collect();
            let mark = if def.provisional() { "†" } else { "" };
            format!("{}{mark}", texts.join(", "))
        }
        // A brown or grey card's effect is what it makes: its letters say it.
        _ => d
            .effects
            .iter()
            .map(|e| match *e {
                Effect::Produce(r) if matches!(d.colour, Colour::Brown | Colour::Grey) => r.to_string(),
                Effect::ProduceOneOf { choices, sellable: true }
                    if matches!(d.colour, Colour::Brown | Colour::Grey) =>
                {
                    choices.iter().map(|r| r.letter().to_string()).collect::<Vec<_>>().join("/")
                }
                _ => effect_short(e),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Units (`[3] Baths [blue] → 3 VP`) on lines indented by `indent`, two spaces apart, as many a
/// line as fit `width`; a unit is never split (one wider than a line wraps at words). No newline
/// at the end.
pub(crate) fn pack_units(units: &[String], indent: usize, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut at = 0;
    for unit in units {
        let w = display_width(unit);
        if !line.is_empty() && at + 2 + w <= width {
            line.push_str("  ");
            line.push_str(unit);
            at += 2 + w;
        } else {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line = format!("{}{unit}", " ".repeat(indent));
            at = indent + w;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    wrap(&lines.join("\n"), width)
}

/// A card's description with its chains both ways, its name coloured on a terminal:
/// `Baths [blue] S → 3 VP; chains to Aqueduct`, `Statue [blue] WOO → 4 VP; free with Theater;
/// chains to Gardens`.
pub(crate) fn card_text(catalog: &Catalog, card: CardId, screen: &Screen) -> String {
    card_text_with(catalog, card, screen, true)
}

/// [`card_text`] without `free with …` when `with_chain_from` is false: in the hand, whose
/// choices say `free, chain` when the city holds the card that chains to it.
pub(crate) fn card_text_with(
    catalog: &Catalog,
    card: CardId,
    screen: &Screen,
    with_chain_from: bool,
) -> String {
    let d = catalog.card(card);
    let effect = card_effect(catalog, card);
    let mut s = format!("{} [{}] {} → {effect}", screen.card(catalog, card), d.colour, cost_short(d));
    if with_chain_from && !d.chain_from.is_empty() {
        let _ = write!(s, "; free with {}", d.chain_from.join(" or "));
    }
    let mut later: Vec<&str> =
        catalog.cards.iter().filter(|c| c.chain_from.contains(&d.name)).map(|c| c.name.as_str()).collect();
    later.dedup();
    if !later.is_empty() {
        let _ = write!(s, "; chains to {}", later.join(", "));
    }
    s
}

/// A card's name, colour, cost and effect, without its chains: `Baths [blue] S → 3 VP` (the
/// card-first menu's line, whose second step shows the whole card).
pub(crate) fn card_brief(catalog: &Catalog, card: CardId, screen: &Screen) -> String {
    let d = catalog.card(card);
    format!(
        "{} [{}] {} → {}",
        screen.card(catalog, card),
        d.colour,
        cost_short(d),
        card_effect(catalog, card)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::Edition;

    #[test]
    fn long_lines_wrap_at_words_keeping_their_indent() {
        let line = "  Baths [blue] cost S → 3 VP; makes free later: Aqueduct";
        assert_eq!(wrap(line, 30), "  Baths [blue] cost S → 3 VP;\n    makes free later: Aqueduct");
        assert_eq!(wrap("short\nlines stay", 30), "short\nlines stay");
        assert_eq!(wrap("a verylongwordthatdoesnotfit b", 10), "a\n  verylongwordthatdoesnotfit\n  b");
        // Colour escapes take no room.
        let red = "\x1b[31mred\x1b[0m";
        assert_eq!(wrap(&format!("{red} {red} {red}"), 11), format!("{red} {red} {red}"));
    }

    #[test]
    fn parts_pack_into_lines_breaking_between_them() {
        let parts: Vec<String> =
            ["Left: seat 1, 2 coins", "wonder 0/3", "sells W", "cards: 1 brown"].map(String::from).to_vec();
        assert_eq!(pack(&parts, 80), "Left: seat 1, 2 coins; wonder 0/3; sells W; cards: 1 brown");
        assert_eq!(pack(&parts, 36), "Left: seat 1, 2 coins; wonder 0/3\n  sells W; cards: 1 brown");
    }

    #[test]
    fn cards_read_in_letters_with_their_chains() {
        let catalog = Catalog::get(Edition::First);
        let text = |name: &str| card_text(catalog, catalog.find_card(name).unwrap(), &Screen::PLAIN);
        assert_eq!(text("Baths"), "Baths [blue] S → 3 VP; chains to Aqueduct");
        assert_eq!(
            text("East Trading Post"),
            "East Trading Post [yellow] free → buy W/S/C/O from the right for 1 coin; chains to Forum"
        );
        assert_eq!(text("Bazar"), "Bazar [yellow] free → 2 coins per grey card (yours + neighbours')");
        assert!(text("Statue").starts_with("Statue [blue] WOO → 4 VP; free with Theater; chains to "));
        // On a terminal the name takes its card's colour, and nothing else changes.
        let coloured = card_text(
            catalog,
            catalog.find_card("Baths").unwrap(),
            &Screen { colour: true, ..Screen::PLAIN },
        );
        assert!(
            coloured.starts_with("\x1b[") && coloured.contains("Baths\x1b[0m [blue] S → 3 VP"),
            "{coloured:?}"
        );
        assert_eq!(display_width(&coloured), display_width(&text("Baths")));
    }

    #[test]
    fn payments_in_few_words() {
        let p = |left, right, bank| Payment::paid(left, right, bank);
        assert_eq!(payment_short(&Payment::free(FreeBy::Chain)), "free, chain");
        assert_eq!(payment_short(&p(0, 0, 0)), "free");
        assert_eq!(payment_short(&p(2, 1, 0)), "1 right + 2 left");
        assert_eq!(payment_short(&p(0, 0, 1)), "1 coin");
        assert!(LEGEND.len() <= 80);
    }
}
