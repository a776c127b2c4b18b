//! The closed set of effects of Armada cards, islands and shipyard spaces, and the codes that
//! name them in `data/armada.toml` (000's card and island descriptions and its symbol sheet
//! 符號說明; armada.md §5, §6).

use super::Fleet;
use crate::effect::{BadEffect, Effect};
use std::fmt;

/// "The 2nd player on your right" (seat i−2 mod n) or "on your left" (seat i+2 mod n), the
/// double arrow of the incursion cards and the trading zones (shared/reference/README.md,
/// Conventions; armada.md §2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The 2nd player on your right: seat (i − 2) mod n.
    Right,
    /// The 2nd player on your left: seat (i + 2) mod n.
    Left,
}

impl Direction {
    /// The seat this direction designates from `seat` at a table of `players`.
    ///
    /// ```
    /// use wonders_core::armada::Direction;
    /// assert_eq!(Direction::Right.target(1, 5), 4);
    /// assert_eq!(Direction::Left.target(4, 5), 1);
    /// // Every seat of 3 to 8 players, as (seat ∓ 2) mod n.
    /// for n in 3..=8 {
    ///     for seat in 0..n {
    ///         assert_eq!(Direction::Right.target(seat, n), (seat + 2 * n - 2) % n);
    ///         assert_eq!(Direction::Left.target(seat, n), (seat + 2) % n);
    ///     }
    /// }
    /// ```
    pub const fn target(self, seat: usize, players: usize) -> usize {
        // The neighbour's neighbour: (seat − 2) mod n and (seat + 2) mod n, without a division
        // (crate::seating::left_of); every payment to a 2nd player asks for it.
        use crate::seating::{left_of, right_of};
        match self {
            Direction::Right => right_of(right_of(seat, players), players),
            Direction::Left => left_of(left_of(seat, players), players),
        }
    }

    fn parse(s: &str) -> Option<Direction> {
        match s {
            "RIGHT" => Some(Direction::Right),
            "LEFT" => Some(Direction::Left),
            _ => None,
        }
    }

    const fn text(self) -> &'static str {
        match self {
            Direction::Right => "right",
            Direction::Left => "left",
        }
    }

    const fn zh(self) -> &'static str {
        match self {
            Direction::Right => "右手邊",
            Direction::Left => "左手邊",
        }
    }
}

/// Which ship a free move may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FleetChoice {
    /// Any ship, the player's choice.
    Any,
    /// Only this fleet's ship.
    Only(Fleet),
}

/// An effect of an Armada card, an island or a shipyard space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArmadaEffect {
    /// A base-game effect (land shields, points, coins when built, production no neighbour may
    /// buy, a science symbol chosen at game end), handled as in the base game.
    Base(Effect),
    /// Naval strength (海軍標識), counted in naval conflicts (§2.5).
    Naval(u8),
    /// An incursion token handed to the 2nd player on that side: one extra land conflict
    /// against that player at Age end (船塢, 碼頭, 防波堤; §2.8).
    Incursion(Direction),
    /// Piracy: every other player loses 1 coin per trade level, at step 6 of the turn
    /// (pirate cards, Pirate Port; §2.7).
    Piracy,
    /// `per_turn` times per turn, buy 1 resource of your choice for 1 coin from the 2nd player
    /// on that side (East / West Trading Zone; §5).
    BuySecondNeighbour {
        /// Which 2nd player.
        side: Direction,
        /// How many units per turn.
        per_turn: u8,
    },
    /// Game end: points per trade level of your yellow fleet (Customs House, Luxury
    /// Archipelago).
    PointsPerTradeLevel(u8),
    /// A free 1-step move of one ship, no naval cost (blue cards, Topaz and Amber Isle).
    FreeMove(FleetChoice),
    /// Free 1-step moves of this many different ships of your choice (White-Surf Port 2,
    /// Tempest Archipelago 3).
    FreeMovesDistinct(u8),
    /// Put the top card of the island deck of that level into play: no choice, not an
    /// exploration (海員學院, 地圖資料室, 海軍檔案室; §2.6).
    TopIsland(u8),
    /// Game end: 1 extra science symbol, the one you have most of (choose if tied).
    ScienceMost,
    /// At each Age end you may stay out of the naval conflict; your strength is then ignored
    /// (Forgotten Port).
    NavalOptOut,
    /// Every naval construction costs 1 resource less; coins are paid in full (Ancient Port).
    NavalDiscount,
    /// 1 coin for every naval construction, even a free one (Wondrous Port).
    CoinPerNaval,
    /// Naval constructions made with a wonder stage cost nothing, for a fleet of your choice
    /// (Lost Isle).
    WonderNavalFree,
    /// You no longer lose coins to taxes or pirates (Misty Isle).
    NoCoinLoss,
    /// Game end: points per island card you own, this one included (Haven Archipelago).
    PointsPerIsland(u8),
    /// Game end: choose a card colour; points per card of that colour in your city (Rainbow
    /// Archipelago).
    PointsPerBestColour(u8),
    /// A yellow space's trade level (track only; no data code).
    TradeLevel(u8),
    /// A tax levied on reaching a yellow space (track only; no data code): every other player
    /// loses `tax − own trade level` coins.
    Tax(u8),
    /// Explore an island of that level on reaching a green space (track only; no data code).
    Explore(u8),
}

impl ArmadaEffect {
    /// The number of kinds of effect ([`ArmadaEffect::kind`]).
    pub(crate) const KINDS: usize = 20;

    /// The kind of this effect: its variant, as an index below [`Self::KINDS`], whatever its
    /// values (the data index which cards and islands have an effect of each kind:
    /// [`super::ArmadaData::with_kind`]).
    pub(crate) const fn kind(&self) -> usize {
        match self {
            ArmadaEffect::Base(_) => 0,
            ArmadaEffect::Naval(_) => 1,
            ArmadaEffect::Incursion(_) => 2,
            ArmadaEffect::Piracy => 3,
            ArmadaEffect::BuySecondNeighbour { .. } => 4,
            ArmadaEffect::PointsPerTradeLevel(_) => 5,
            ArmadaEffect::FreeMove(_) => 6,
            ArmadaEffect::FreeMovesDistinct(_) => 7,
            ArmadaEffect::TopIsland(_) => 8,
            ArmadaEffect::ScienceMost => 9,
            ArmadaEffect::NavalOptOut => 10,
            ArmadaEffect::NavalDiscount => 11,
            ArmadaEffect::CoinPerNaval => 12,
            ArmadaEffect::WonderNavalFree => 13,
            ArmadaEffect::NoCoinLoss => 14,
            ArmadaEffect::PointsPerIsland(_) => 15,
            ArmadaEffect::PointsPerBestColour(_) => 16,
            ArmadaEffect::TradeLevel(_) => 17,
            ArmadaEffect::Tax(_) => 18,
            ArmadaEffect::Explore(_) => 19,
        }
    }
}

fn number(s: &str) -> Option<u8> {
    s.parse().ok()
}

impl ArmadaEffect {
    /// Parses an effect code of `data/armada.toml` (its header lists them); any other code is
    /// read as a base-game code ([`Effect::parse`]).
    ///
    /// ```
    /// use wonders_core::armada::{ArmadaEffect, Direction};
    /// use wonders_core::Effect;
    /// assert_eq!(ArmadaEffect::parse("NAVAL2").unwrap(), ArmadaEffect::Naval(2));
    /// assert_eq!(ArmadaEffect::parse("INCURSION:LEFT").unwrap(), ArmadaEffect::Incursion(Direction::Left));
    /// assert_eq!(ArmadaEffect::parse("SH1").unwrap(), ArmadaEffect::Base(Effect::Shields(1)));
    /// assert!(ArmadaEffect::parse("INCURSION:UP").is_err());
    /// ```
    pub fn parse(code: &str) -> Result<ArmadaEffect, BadEffect> {
        parse(code).ok_or_else(|| BadEffect(code.to_string()))
    }

    /// Whether this effect exists only on shipyard spaces (it has no data code).
    pub const fn is_track_only(&self) -> bool {
        matches!(self, ArmadaEffect::TradeLevel(_) | ArmadaEffect::Tax(_) | ArmadaEffect::Explore(_))
    }
}

fn parse(code: &str) -> Option<ArmadaEffect> {
    use ArmadaEffect as A;
    let parts: Vec<&str> = code.split(':').collect();
    Some(match parts.as_slice() {
        ["INCURSION", d] => A::Incursion(Direction::parse(d)?),
        ["PIRACY"] => A::Piracy,
        ["BUY2", d, n] => {
            A::BuySecondNeighbour { side: Direction::parse(d)?, per_turn: number(n).filter(|&n| n > 0)? }
        }
        ["VP_PER_TRADE", n] => A::PointsPerTradeLevel(number(n)?),
        ["MOVE", "any"] => A::FreeMove(FleetChoice::Any),
        ["MOVE", f] => A::FreeMove(FleetChoice::Only(Fleet::parse(f)?)),
        ["MOVES", n] => A::FreeMovesDistinct(number(n).filter(|n| (2..=4).contains(n))?),
        ["ISLAND", n] => A::TopIsland(number(n).filter(|n| (1..=3).contains(n))?),
        ["SCI", "most"] => A::ScienceMost,
        ["NAVAL_OPT_OUT"] => A::NavalOptOut,
        ["NAVAL_DISCOUNT"] => A::NavalDiscount,
        ["COIN_PER_NAVAL"] => A::CoinPerNaval,
        ["WONDER_NAVAL_FREE"] => A::WonderNavalFree,
        ["NO_COIN_LOSS"] => A::NoCoinLoss,
        ["VP_PER_ISLAND", n] => A::PointsPerIsland(number(n)?),
        ["VP_PER_COLOUR", n] => A::PointsPerBestColour(number(n)?),
        [single] if single.starts_with("NAVAL") => {
            A::Naval(number(&single["NAVAL".len()..]).filter(|&n| n > 0)?)
        }
        _ => A::Base(Effect::parse(code).ok()?),
    })
}

impl fmt::Display for ArmadaEffect {
    /// A short English description, as shown to players.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ArmadaEffect as A;
        match *self {
            A::Base(e) => write!(f, "{e}"),
            A::Naval(n) => write!(f, "{n} naval strength"),
            A::Incursion(d) => write!(f, "incursion against the 2nd player on your {}", d.text()),
            A::Piracy => f.write_str("piracy: every other player loses 1 coin per trade level"),
            A::BuySecondNeighbour { side, per_turn } => {
                let times = match per_turn {
                    1 => "once".to_string(),
                    2 => "twice".to_string(),
                    n => format!("{n} times"),
                };
                write!(
                    f,
                    "{times} per turn, buy 1 resource from the 2nd player on your {} for 1 coin",
                    side.text()
                )
            }
            A::PointsPerTradeLevel(n) => write!(f, "{n} VP per trade level"),
            A::FreeMove(FleetChoice::Any) => f.write_str("free move of any ship"),
            A::FreeMove(FleetChoice::Only(fl)) => write!(f, "free move of the {fl} ship"),
            A::FreeMovesDistinct(n) => write!(f, "free moves of {n} different ships"),
            A::TopIsland(l) => write!(f, "top level-{l} island into play"),
            A::ScienceMost => f.write_str("extra science symbol (the one you have most of)"),
            A::NavalOptOut => f.write_str("may stay out of naval conflicts"),
            A::NavalDiscount => f.write_str("naval constructions cost 1 resource less"),
            A::CoinPerNaval => f.write_str("1 coin per naval construction"),
            A::WonderNavalFree => f.write_str("naval constructions with a wonder stage are free, any fleet"),
            A::NoCoinLoss => f.write_str("no coin loss to taxes or pirates"),
            A::PointsPerIsland(n) => write!(f, "{n} VP per island"),
            A::PointsPerBestColour(n) => write!(f, "{n} VP per card of a colour you choose"),
            A::TradeLevel(n) => write!(f, "trade level {n}"),
            A::Tax(n) => write!(f, "tax {n}"),
            A::Explore(l) => write!(f, "explore a level-{l} island"),
        }
    }
}

impl ArmadaEffect {
    /// A short description in Traditional Chinese (the terms of 000).
    ///
    /// ```
    /// use wonders_core::armada::ArmadaEffect;
    /// assert_eq!(ArmadaEffect::parse("NAVAL3").unwrap().text_zh(), "3個海軍標識");
    /// ```
    pub fn text_zh(&self) -> String {
        use ArmadaEffect as A;
        match *self {
            A::Base(e) => e.text_zh(),
            A::Naval(n) => format!("{n}個海軍標識"),
            A::Incursion(d) => format!("入侵：{}第二位玩家", d.zh()),
            A::Piracy => "海盜：其他所有玩家每一貿易等級失去1元錢幣".into(),
            A::BuySecondNeighbour { side, per_turn } => {
                format!("每回合僅限{per_turn}次，從{}第二位玩家處以1元錢幣購買1個自選資源", side.zh())
            }
            A::PointsPerTradeLevel(n) => format!("每一貿易等級{n}分"),
            A::FreeMove(FleetChoice::Any) => "免費移動任意一艘船隻一格".into(),
            A::FreeMove(FleetChoice::Only(fl)) => format!("免費移動{}船隻一格", fl.zh()),
            A::FreeMovesDistinct(n) => format!("免費移動{n}艘不同的船隻各一格"),
            A::TopIsland(l) => format!("等級{l}島嶼牌堆頂的卡牌進場"),
            A::ScienceMost => "額外的科技符號（擁有最多的符號）".into(),
            A::NavalOptOut => "可選擇不參與海上衝突".into(),
            A::NavalDiscount => "海軍建設少支付1份資源".into(),
            A::CoinPerNaval => "每次海軍建設獲得1元錢幣".into(),
            A::WonderNavalFree => "通過奇蹟的海軍建設免費，可任選艦隊顏色".into(),
            A::NoCoinLoss => "不因賦稅或海盜失去錢幣".into(),
            A::PointsPerIsland(n) => format!("每張島嶼卡牌{n}分"),
            A::PointsPerBestColour(n) => format!("自選一種顏色，每張該顏色卡牌{n}分"),
            A::TradeLevel(n) => format!("貿易等級{n}"),
            A::Tax(n) => format!("征收{n}元賦稅"),
            A::Explore(l) => format!("探索等級{l}島嶼"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_refuse() {
        assert_eq!(parse("MOVE:any"), Some(ArmadaEffect::FreeMove(FleetChoice::Any)));
        assert_eq!(parse("MOVE:blue"), Some(ArmadaEffect::FreeMove(FleetChoice::Only(Fleet::Blue))));
        assert_eq!(parse("MOVES:3"), Some(ArmadaEffect::FreeMovesDistinct(3)));
        assert_eq!(
            parse("BUY2:LEFT:2"),
            Some(ArmadaEffect::BuySecondNeighbour { side: Direction::Left, per_turn: 2 })
        );
        assert_eq!(parse("NAVAL_OPT_OUT"), Some(ArmadaEffect::NavalOptOut));
        for bad in ["NAVAL", "NAVAL0", "NAVALX", "ISLAND:4", "MOVES:1", "MOVE:purple", "BUY2:LEFT:0", "FOO"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
