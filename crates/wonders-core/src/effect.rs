//! The closed set of effects a card or a wonder stage can have, and the codes that name them in
//! the data files.
//!
//! Each variant is handled in one place per moment of the game: when a structure enters a city
//! ([`crate::city::City::gain`]), when it is built (coins, as the conductor resolves the turn), and at game end
//! ([`crate::score`]).

use crate::card::Colour;
use crate::resources::{Resource, ResourceSet, Resources};
use std::fmt;

/// A science symbol (rulebook 002, 科技建築).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Science {
    /// Compass (002 icon; 003 醫學).
    Compass = 0,
    /// Gear, cog (003 科學).
    Gear = 1,
    /// Tablet (003 歷史).
    Tablet = 2,
}

/// Which cities an effect counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scope {
    /// The owner's own city.
    pub own: bool,
    /// Both neighbouring cities.
    pub neighbours: bool,
}

/// Neighbour directions a trading discount applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sides {
    /// The left neighbour (seat i+1).
    pub left: bool,
    /// The right neighbour (seat i−1).
    pub right: bool,
}

/// What a "per" effect counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counted {
    /// Cards of any of these colours (a bit per [`Colour`]).
    Colours(u8),
    /// Wonder stages built.
    WonderStages,
    /// Defeat (−1) military tokens.
    Defeats,
}

/// An effect of a card or a wonder stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Fixed production every turn.
    Produce(Resources),
    /// One of `choices` each turn; `sellable` says whether neighbours may buy it.
    ProduceOneOf {
        /// The resources to choose from.
        choices: ResourceSet,
        /// Whether neighbours may buy it (brown either/or cards) or not (Forum, Caravansery,
        /// Alexandria's stages).
        sellable: bool,
    },
    /// Victory points at game end.
    Points(u8),
    /// Military shields.
    Shields(u8),
    /// Coins taken once from the bank, when built.
    Coins(u8),
    /// A science symbol.
    Science(Science),
    /// A science symbol chosen at game end (Babylon, Scientists Guild).
    ScienceWild,
    /// From the next turn on, buy `resources` for 1 coin from the given neighbours.
    TradeDiscount {
        /// Which resources are cheaper.
        resources: ResourceSet,
        /// From which neighbours.
        sides: Sides,
    },
    /// Coins once, when built, per counted item (Vineyard, Bazar).
    CoinsPer {
        /// What is counted.
        what: Counted,
        /// Where.
        scope: Scope,
        /// Coins per item.
        coins: u8,
    },
    /// Coins when built and points at game end, per item in the own city (Haven, Lighthouse,
    /// Chamber of Commerce, Arena, Ludus).
    CoinsAndPointsPer {
        /// What is counted.
        what: Counted,
        /// Coins per item, once, when built.
        coins: u8,
        /// Points per item, at game end.
        points: u8,
    },
    /// Points at game end per counted item (most guilds).
    PointsPer {
        /// What is counted.
        what: Counted,
        /// Where.
        scope: Scope,
        /// Points per item.
        points: u8,
    },
    /// Olympia A stage 2: once per Age, build a card from hand for free.
    FreeBuildPerAge,
    /// Halicarnassus: at the end of the turn, build a card from the discard pile for free.
    BuildFromDiscard,
    /// Babylon B stage 2: play the last card of each Age instead of discarding it.
    PlayLastCard,
    /// Olympia B stage 3: copy a neighbour's guild at game end.
    CopyGuild,
    /// 2nd edition, Olympia Day stage 2: the first card of each colour you build is free.
    FreeFirstOfColour,
    /// 2nd edition, Olympia Night stage 1: the first card you build in each Age is free.
    FreeFirstOfAge,
    /// 2nd edition, Olympia Night stage 2: the last card of each Age is free.
    FreeLastOfAge,
    /// 2nd edition, Decorators Guild: points if every stage of your wonder is built.
    PointsIfWonderComplete(u8),
    /// Edifice, Ur: take a participation pawn of this Age (1–3) from the box; 0 = of the Age the
    /// builder chooses (edifice.md §5.4; what the pawn does: [`crate::edifice`]).
    TakePawn(u8),
}

/// An effect code that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown effect code `{0}`")]
pub struct BadEffect(pub String);

impl Effect {
    /// Whether this effect gives coins once, when its card is built (002 2.a: Tavern, Vineyard,
    /// Bazar, Haven, …): the effects `Game`'s resolution counts for a built card.
    ///
    /// ```
    /// use wonders_core::Effect;
    /// assert!(Effect::Coins(5).gives_coins_when_built());
    /// assert!(!Effect::Points(3).gives_coins_when_built());
    /// ```
    pub fn gives_coins_when_built(&self) -> bool {
        matches!(self, Effect::Coins(_) | Effect::CoinsPer { .. } | Effect::CoinsAndPointsPer { .. })
    }

    /// Whether its points at the end depend on the game ([`score`](crate::score) counts
    /// something, or checks the wonder): every scoring effect but [`Effect::Points`].
    ///
    /// ```
    /// use wonders_core::effect::Effect;
    /// assert!(!Effect::Points(3).scores_by_counting());
    /// assert!(Effect::PointsIfWonderComplete(7).scores_by_counting());
    /// ```
    pub fn scores_by_counting(&self) -> bool {
        matches!(
            self,
            Effect::CoinsAndPointsPer { .. } | Effect::PointsPer { .. } | Effect::PointsIfWonderComplete(_)
        )
    }

    /// Parses an effect code of the data files (see `data/base-1e.toml`).
    ///
    /// ```
    /// use wonders_core::{Effect, Resources};
    /// assert_eq!(Effect::parse("VP3").unwrap(), Effect::Points(3));
    /// assert_eq!(
    ///     Effect::parse("PROD:WW").unwrap(),
    ///     Effect::Produce(Resources::from_letters("WW").unwrap())
    /// );
    /// assert!(Effect::parse("VP").is_err());
    /// ```
    pub fn parse(code: &str) -> Result<Effect, BadEffect> {
        parse(code).ok_or_else(|| BadEffect(code.to_string()))
    }
}

fn number(s: &str) -> Option<u8> {
    s.parse().ok()
}

fn scope(s: &str) -> Option<Scope> {
    Some(match s {
        "SELF" => Scope { own: true, neighbours: false },
        "LEFT+RIGHT" => Scope { own: false, neighbours: true },
        "SELF+LEFT+RIGHT" => Scope { own: true, neighbours: true },
        _ => return None,
    })
}

fn counted(s: &str) -> Option<Counted> {
    match s {
        "wonder" => Some(Counted::WonderStages),
        "defeat" => Some(Counted::Defeats),
        _ => s
            .split('+')
            .try_fold(0u8, |m, c| Colour::parse(c).map(|c| m | 1 << c as u8))
            .map(Counted::Colours),
    }
}

fn parse(code: &str) -> Option<Effect> {
    let parts: Vec<&str> = code.split(':').collect();
    Some(match parts.as_slice() {
        ["PROD", what] => {
            let (what, sellable) = match what.strip_suffix('!') {
                Some(w) => (w, false),
                None => (*what, true),
            };
            if what.contains('/') {
                let mut set = ResourceSet::EMPTY;
                for letter in what.split('/') {
                    let mut chars = letter.chars();
                    let r = Resource::from_letter(chars.next()?)?;
                    if chars.next().is_some() {
                        return None;
                    }
                    set = set.union(r.bit());
                }
                Effect::ProduceOneOf { choices: set, sellable }
            } else if sellable {
                Effect::Produce(Resources::from_letters(what).filter(|r| !r.is_empty())?)
            } else {
                return None;
            }
        }
        ["SCI", "compass"] => Effect::Science(Science::Compass),
        ["SCI", "gear"] => Effect::Science(Science::Gear),
        ["SCI", "tablet"] => Effect::Science(Science::Tablet),
        ["SCI", "any"] => Effect::ScienceWild,
        ["DISCOUNT", res, sides] => Effect::TradeDiscount {
            resources: ResourceSet::from_letters(res).filter(|s| !s.is_empty())?,
            sides: match *sides {
                "LEFT" => Sides { left: true, right: false },
                "RIGHT" => Sides { left: false, right: true },
                "LEFT+RIGHT" => Sides { left: true, right: true },
                _ => return None,
            },
        },
        ["COIN_PER", what, sc, n] => {
            Effect::CoinsPer { what: counted(what)?, scope: scope(sc)?, coins: number(n)? }
        }
        ["PER", what, "SELF", c, vp] => Effect::CoinsAndPointsPer {
            what: counted(what)?,
            coins: number(c.strip_prefix('c')?)?,
            points: number(vp.strip_prefix("vp")?)?,
        },
        ["VP_PER", what, sc, n] => {
            Effect::PointsPer { what: counted(what)?, scope: scope(sc)?, points: number(n)? }
        }
        ["FREEBUILD"] => Effect::FreeBuildPerAge,
        ["DISCARD"] => Effect::BuildFromDiscard,
        ["PLAY7TH"] => Effect::PlayLastCard,
        ["COPYGUILD"] => Effect::CopyGuild,
        ["FREE_FIRST_COLOUR"] => Effect::FreeFirstOfColour,
        ["FREE_FIRST_AGE"] => Effect::FreeFirstOfAge,
        ["FREE_LAST_AGE"] => Effect::FreeLastOfAge,
        ["VP_IF_WONDER_COMPLETE", n] => Effect::PointsIfWonderComplete(number(n)?),
        ["PAWN", "any"] => Effect::TakePawn(0),
        ["PAWN", n] => Effect::TakePawn(number(n).filter(|a| (1..=3).contains(a))?),
        [single] => {
            if let Some(n) = single.strip_prefix("VP") {
                Effect::Points(number(n)?)
            } else if let Some(n) = single.strip_prefix("SH") {
                Effect::Shields(number(n)?)
            } else if let Some(n) = single.strip_prefix("COIN") {
                Effect::Coins(number(n)?)
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

impl fmt::Display for Science {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Science::Compass => "compass",
            Science::Gear => "gear",
            Science::Tablet => "tablet",
        })
    }
}

fn colours_text(mask: u8) -> String {
    Colour::ALL
        .iter()
        .filter(|c| mask & (1 << **c as u8) != 0)
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join("/")
}

fn counted_text(c: Counted) -> String {
    match c {
        Counted::Colours(m) => format!("{} card", colours_text(m)),
        Counted::WonderStages => "wonder stage".into(),
        Counted::Defeats => "defeat token".into(),
    }
}

fn scope_text(s: Scope) -> &'static str {
    match (s.own, s.neighbours) {
        (true, true) => "yours and both neighbours'",
        (false, true) => "both neighbours'",
        _ => "yours",
    }
}

impl fmt::Display for Effect {
    /// A short English description, as shown to players.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Effect::Produce(r) => write!(f, "produces {r}"),
            Effect::ProduceOneOf { choices, sellable } => {
                let letters: Vec<String> = choices.iter().map(|r| r.letter().to_string()).collect();
                write!(f, "produces {}", letters.join("/"))?;
                if !sellable {
                    f.write_str(" (not for sale)")?;
                }
                Ok(())
            }
            Effect::Points(n) => write!(f, "{n} VP"),
            Effect::Shields(n) => write!(f, "{n} shield{}", if n == 1 { "" } else { "s" }),
            Effect::Coins(n) => write!(f, "{n} coins"),
            Effect::Science(s) => write!(f, "{s}"),
            Effect::ScienceWild => f.write_str("any science symbol"),
            Effect::TradeDiscount { resources, sides } => {
                let side = match (sides.left, sides.right) {
                    (true, true) => "both neighbours",
                    (true, false) => "left neighbour",
                    _ => "right neighbour",
                };
                let what = if resources == ResourceSet::RAW {
                    "raw materials".to_string()
                } else if resources == ResourceSet::MANUFACTURED {
                    "manufactured goods".to_string()
                } else {
                    resources.iter().map(|r| r.name()).collect::<Vec<_>>().join("/")
                };
                write!(f, "buy {what} from {side} for 1")
            }
            Effect::CoinsPer { what, scope, coins } => {
                write!(f, "{coins} coin(s) per {} ({})", counted_text(what), scope_text(scope))
            }
            Effect::CoinsAndPointsPer { what, coins, points } => {
                write!(f, "{coins} coin(s) now and {points} VP at the end per {} (yours)", counted_text(what))
            }
            Effect::PointsPer { what, scope, points } => {
                write!(f, "{points} VP per {} ({})", counted_text(what), scope_text(scope))
            }
            Effect::FreeBuildPerAge => f.write_str("once per Age, build a card free"),
            Effect::BuildFromDiscard => f.write_str("build a discarded card free"),
            Effect::PlayLastCard => f.write_str("play the last card of each Age"),
            Effect::CopyGuild => f.write_str("copy a neighbour's guild"),
            Effect::FreeFirstOfColour => f.write_str("first card of each colour free"),
            Effect::FreeFirstOfAge => f.write_str("first card of each Age free"),
            Effect::FreeLastOfAge => f.write_str("last card of each Age free"),
            Effect::PointsIfWonderComplete(n) => write!(f, "{n} VP if your wonder is complete"),
            Effect::TakePawn(0) => f.write_str("take a participation pawn of any Age"),
            Effect::TakePawn(a) => write!(f, "take an Age {a} participation pawn"),
        }
    }
}

impl Science {
    /// The symbol's name in Traditional Chinese (the names of the 003 article).
    pub const fn zh(self) -> &'static str {
        match self {
            Science::Compass => "醫學",
            Science::Gear => "科學",
            Science::Tablet => "歷史",
        }
    }
}

fn colours_zh(mask: u8) -> String {
    const ZH: [&str; 7] = ["棕色", "灰色", "藍色", "黃色", "紅色", "綠色", "紫色"];
    Colour::ALL
        .iter()
        .filter(|c| mask & (1 << **c as u8) != 0)
        .map(|c| ZH[*c as usize])
        .collect::<Vec<_>>()
        .join("/")
}

fn counted_zh(c: Counted) -> String {
    match c {
        Counted::Colours(m) => format!("{}卡牌", colours_zh(m)),
        Counted::WonderStages => "奇蹟階段".into(),
        Counted::Defeats => "失敗標記".into(),
    }
}

fn scope_zh(s: Scope) -> &'static str {
    match (s.own, s.neighbours) {
        (true, true) => "自己及兩側鄰居",
        (false, true) => "兩側鄰居",
        _ => "自己",
    }
}

fn resource_zh(r: Resource) -> &'static str {
    ["木頭", "石頭", "磚塊", "礦石", "玻璃", "布料", "紙張"][r as usize]
}

impl Effect {
    /// A short description in Traditional Chinese, as shown to players (the terms of rulebook
    /// 002).
    ///
    /// ```
    /// use wonders_core::Effect;
    /// assert_eq!(Effect::parse("VP3").unwrap().text_zh(), "3分");
    /// assert_eq!(Effect::parse("PROD:W/C").unwrap().text_zh(), "產出 木頭/磚塊 之一");
    /// ```
    pub fn text_zh(&self) -> String {
        match *self {
            Effect::Produce(r) => {
                let parts: Vec<String> = Resource::ALL
                    .iter()
                    .filter(|x| r.get(**x) > 0)
                    .map(|x| format!("{}×{}", resource_zh(*x), r.get(*x)))
                    .collect();
                format!("產出 {}", parts.join(" "))
            }
            Effect::ProduceOneOf { choices, sellable } => {
                let names: Vec<&str> = choices.iter().map(resource_zh).collect();
                format!("產出 {} 之一{}", names.join("/"), if sellable { "" } else { "（不可出售）" })
            }
            Effect::Points(n) => format!("{n}分"),
            Effect::Shields(n) => format!("{n}個軍事標識"),
            Effect::Coins(n) => format!("{n}元錢幣"),
            Effect::Science(s) => format!("科技符號：{}", s.zh()),
            Effect::ScienceWild => "任選一個科技符號".into(),
            Effect::TradeDiscount { resources, sides } => {
                let side = match (sides.left, sides.right) {
                    (true, true) => "兩側鄰居",
                    (true, false) => "左側鄰居",
                    _ => "右側鄰居",
                };
                let what = if resources == ResourceSet::RAW {
                    "原材料".to_string()
                } else if resources == ResourceSet::MANUFACTURED {
                    "加工材料".to_string()
                } else {
                    resources.iter().map(resource_zh).collect::<Vec<_>>().join("/")
                };
                format!("以1元向{side}購買{what}")
            }
            Effect::CoinsPer { what, scope, coins } => {
                format!("{}每張{}得{coins}元", scope_zh(scope), counted_zh(what))
            }
            Effect::CoinsAndPointsPer { what, coins, points } => {
                format!("自己每個{}：立即{coins}元，結束時{points}分", counted_zh(what))
            }
            Effect::PointsPer { what, scope, points } => {
                format!("{}每個{}得{points}分", scope_zh(scope), counted_zh(what))
            }
            Effect::FreeBuildPerAge => "每個時代可免費建造一次".into(),
            Effect::BuildFromDiscard => "免費建造一張棄牌".into(),
            Effect::PlayLastCard => "可打出每個時代的最後一張牌".into(),
            Effect::CopyGuild => "複製鄰居的一張行會".into(),
            Effect::FreeFirstOfColour => "每種顏色的第一張卡牌免費".into(),
            Effect::FreeFirstOfAge => "每個時代的第一張卡牌免費".into(),
            Effect::FreeLastOfAge => "每個時代的最後一張卡牌免費".into(),
            Effect::PointsIfWonderComplete(n) => format!("奇蹟全部完成時得{n}分"),
            Effect::TakePawn(0) => "從遊戲盒拿取任一時代的參與棋子".into(),
            Effect::TakePawn(a) => format!("從遊戲盒拿取時代{a}的參與棋子"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        assert_eq!(
            Effect::parse("PROD:W/C").unwrap(),
            Effect::ProduceOneOf { choices: ResourceSet::from_letters("WC").unwrap(), sellable: true }
        );
        assert_eq!(
            Effect::parse("PROD:G/L/P!").unwrap(),
            Effect::ProduceOneOf { choices: ResourceSet::MANUFACTURED, sellable: false }
        );
        assert_eq!(Effect::parse("SH2").unwrap(), Effect::Shields(2));
        assert_eq!(Effect::parse("COIN9").unwrap(), Effect::Coins(9));
        assert_eq!(Effect::parse("SCI:any").unwrap(), Effect::ScienceWild);
        assert_eq!(
            Effect::parse("DISCOUNT:WSCO:RIGHT").unwrap(),
            Effect::TradeDiscount { resources: ResourceSet::RAW, sides: Sides { left: false, right: true } }
        );
        assert_eq!(
            Effect::parse("VP_PER:brown+grey+purple:SELF:1").unwrap(),
            Effect::PointsPer {
                what: Counted::Colours(
                    1 << Colour::Brown as u8 | 1 << Colour::Grey as u8 | 1 << Colour::Purple as u8
                ),
                scope: Scope { own: true, neighbours: false },
                points: 1
            }
        );
        assert_eq!(
            Effect::parse("PER:wonder:SELF:c3:vp1").unwrap(),
            Effect::CoinsAndPointsPer { what: Counted::WonderStages, coins: 3, points: 1 }
        );
    }

    #[test]
    fn rejects_nonsense() {
        for bad in
            ["", "PROD:", "PROD:X", "PROD:WW!", "PROD:WW/C", "VPx", "SCI:star", "PER:brown:LEFT:c1:vp1"]
        {
            assert!(Effect::parse(bad).is_err(), "{bad}");
        }
    }
}
