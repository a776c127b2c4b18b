//! The WebSocket's `state` message written as JSON by hand: the very bytes `serde_json` writes for
//! [`ServerMsg::State`](crate::msg::ServerMsg::State) (the tests compare the two on every state of
//! whole games of every kind), without serde's per-field machinery.
//!
//! Why: a state goes to every seat after every change, and serialising it was a quarter of the
//! server's instructions under load, most of it in the seat's legal actions (an internally tagged
//! enum: every key and value of every action passed through serde_json's map serialiser and its
//! string escaping, about 120 instructions per string however short). Here the keys are
//! literals, strings that need no escaping (card and wonder names, phases: nearly all) are copied
//! as they are, and the parts shared by every seat ([`SharedJson`]) and the log's entries
//! ([`crate::msg::WithJson`]: each serialised once) are copied. Rare or nested
//! parts (Edifice's projects, Armada's state, the scores) are still written by
//! `serde_json`.
//!
//! Every struct and enum is taken apart field by field with no `..`: a field added to one of them
//! does not compile here until it is written.

use crate::msg::{SeatView, SharedJson, StateMsg};
use crate::summary::{CitySummary, Prices, ProductionJson};
use serde::Serialize;
use wonders_core::wire::{WireAction, WireCity, WireFree};

/// The message `{"type":"state",…}` for `state`, as [`serde_json::to_string`] of
/// `ServerMsg::State` writes it, appended to `out`.
pub fn write_state_msg(out: &mut String, state: &StateMsg) {
    let StateMsg {
        table,
        step,
        you,
        turn_id,
        view,
        legal,
        waiting,
        history,
        history_from,
        scores,
        summaries,
        age_ends,
        pending,
        reasons,
        stage_reason,
        timer_left_secs,
        remaining_ms,
    } = state;
    out.push_str("{\"type\":\"state\",\"table\":");
    out.push_str(table.json());
    out.push_str(",\"step\":");
    uint(out, *step);
    out.push_str(",\"you\":");
    opt_u8(out, *you);
    out.push_str(",\"turn_id\":");
    uint(out, *turn_id);
    out.push_str(",\"view\":");
    match view {
        Some(v) => seat_view(out, v),
        None => out.push_str("null"),
    }
    out.push_str(",\"legal\":");
    actions(out, legal);
    out.push_str(",\"waiting\":");
    u8s(out, waiting);
    out.push_str(",\"history\":[");
    for (i, e) in history.iter().enumerate() {
        comma(out, i);
        out.push_str(e.json());
    }
    out.push(']');
    out.push_str(",\"history_from\":");
    uint(out, *history_from as u64);
    out.push_str(",\"scores\":");
    serde(out, scores);
    out.push_str(",\"summaries\":");
    shared(out, summaries);
    out.push_str(",\"age_ends\":");
    shared(out, age_ends);
    out.push_str(",\"pending\":");
    actions(out, pending);
    out.push_str(",\"reasons\":[");
    for (i, r) in reasons.iter().enumerate() {
        comma(out, i);
        opt_str(out, r.as_deref());
    }
    out.push(']');
    if let Some(r) = stage_reason {
        out.push_str(",\"stage_reason\":");
        string(out, r);
    }
    if let Some(t) = timer_left_secs {
        out.push_str(",\"timer_left_secs\":");
        uint(out, u64::from(*t));
    }
    if let Some(ms) = remaining_ms {
        out.push_str(",\"remaining_ms\":");
        uint(out, *ms);
    }
    out.push('}');
}

fn seat_view(out: &mut String, v: &SeatView) {
    let SeatView {
        seat,
        edition,
        age,
        turn,
        phase,
        phase_city,
        acting_city,
        free_city,
        free_city_holder,
        draw_pile_size,
        hand,
        cities,
        hand_sizes,
        chosen,
        discard_size,
        discard,
        log,
        projects,
        teams,
        teammate_hand,
        armada,
    } = v;
    out.push_str("{\"seat\":");
    opt_u8(out, *seat);
    out.push_str(",\"edition\":");
    string(out, edition);
    out.push_str(",\"age\":");
    uint(out, u64::from(*age));
    out.push_str(",\"turn\":");
    uint(out, u64::from(*turn));
    out.push_str(",\"phase\":");
    string(out, phase);
    if let Some(c) = phase_city {
        out.push_str(",\"phase_city\":");
        uint(out, u64::from(*c));
    }
    out.push_str(",\"acting_city\":");
    uint(out, u64::from(*acting_city));
    if let Some(c) = free_city {
        out.push_str(",\"free_city\":");
        uint(out, u64::from(*c));
    }
    if let Some(s) = free_city_holder {
        out.push_str(",\"free_city_holder\":");
        uint(out, u64::from(*s));
    }
    if let Some(n) = draw_pile_size {
        out.push_str(",\"draw_pile_size\":");
        uint(out, u64::from(*n));
    }
    if let Some(h) = hand {
        out.push_str(",\"hand\":");
        strings(out, h);
    }
    out.push_str(",\"cities\":");
    shared(out, cities);
    out.push_str(",\"hand_sizes\":");
    u8s(out, hand_sizes);
    out.push_str(",\"chosen\":[");
    for (i, &c) in chosen.iter().enumerate() {
        comma(out, i);
        out.push_str(if c { "true" } else { "false" });
    }
    out.push_str("],\"discard_size\":");
    uint(out, u64::from(*discard_size));
    if let Some(d) = discard {
        out.push_str(",\"discard\":");
        strings(out, d);
    }
    out.push_str(",\"log\":");
    shared(out, log);
    if !projects.is_empty() {
        out.push_str(",\"projects\":");
        serde(out, projects);
    }
    if *teams {
        out.push_str(",\"teams\":true");
    }
    if let Some(h) = teammate_hand {
        out.push_str(",\"teammate_hand\":");
        strings(out, h);
    }
    if let Some(a) = armada {
        out.push_str(",\"armada\":");
        serde(out, a);
    }
    out.push('}');
}

/// Every city, as `serde_json` writes `[WireCity]` (a state's `view.cities`, written once per
/// change of the game and shared by every seat's state).
pub fn cities(list: &[WireCity]) -> String {
    let mut out = String::with_capacity(256 * list.len());
    out.push('[');
    for (i, c) in list.iter().enumerate() {
        let WireCity { wonder, side, stages, stages_total, coins, military, shields, cards, pawns, debt } = c;
        comma(&mut out, i);
        out.push_str("{\"wonder\":");
        string(&mut out, wonder);
        out.push_str(",\"side\":");
        string(&mut out, side);
        field_u8(&mut out, "stages", *stages);
        field_u8(&mut out, "stages_total", *stages_total);
        out.push_str(",\"coins\":");
        uint(&mut out, u64::from(*coins));
        out.push_str(",\"military\":[");
        for (j, &m) in military.iter().enumerate() {
            comma(&mut out, j);
            int(&mut out, i64::from(m));
        }
        out.push(']');
        field_u8(&mut out, "shields", *shields);
        out.push_str(",\"cards\":");
        strings(&mut out, cards);
        if !pawns.is_empty() {
            out.push_str(",\"pawns\":");
            u8s(&mut out, pawns);
        }
        if !debt.is_empty() {
            out.push_str(",\"debt\":");
            u8s(&mut out, debt);
        }
        out.push('}');
    }
    out.push(']');
    out
}

/// Every city's summary, as `serde_json` writes `[CitySummary]` (a state's `summaries`, written
/// once per change of the game and shared by every seat's state).
pub fn summaries(list: &[CitySummary]) -> String {
    let mut out = String::with_capacity(320 * list.len());
    out.push('[');
    for (i, c) in list.iter().enumerate() {
        let CitySummary {
            production,
            for_sale,
            prices,
            science,
            science_wild,
            science_points,
            shields,
            military_points,
            score_now,
            next_stage_cost,
            edifice_points,
        } = c;
        comma(&mut out, i);
        out.push_str("{\"production\":");
        production_json(&mut out, production);
        out.push_str(",\"for_sale\":");
        production_json(&mut out, for_sale);
        let Prices { left, right } = prices;
        out.push_str(",\"prices\":{\"left\":");
        u8s(&mut out, left);
        out.push_str(",\"right\":");
        u8s(&mut out, right);
        out.push_str("},\"science\":");
        u8s(&mut out, science);
        field_u8(&mut out, "science_wild", *science_wild);
        out.push_str(",\"science_points\":");
        int(&mut out, i64::from(*science_points));
        field_u8(&mut out, "shields", *shields);
        out.push_str(",\"military_points\":");
        int(&mut out, i64::from(*military_points));
        out.push_str(",\"score_now\":");
        int(&mut out, i64::from(*score_now));
        if let Some(cost) = next_stage_cost {
            field_str(&mut out, "next_stage_cost", cost);
        }
        if *edifice_points != 0 {
            out.push_str(",\"edifice_points\":");
            int(&mut out, i64::from(*edifice_points));
        }
        out.push('}');
    }
    out.push(']');
    out
}

fn production_json(out: &mut String, p: &ProductionJson) {
    let ProductionJson { fixed, either } = p;
    out.push_str("{\"fixed\":");
    string(out, fixed);
    out.push_str(",\"either\":");
    strings(out, either);
    out.push('}');
}

/// A list of actions, as `serde_json` writes `[WireAction]`.
fn actions(out: &mut String, list: &[WireAction]) {
    out.push('[');
    for (i, a) in list.iter().enumerate() {
        comma(out, i);
        action(out, a);
    }
    out.push(']');
}

/// One action, as `serde_json` writes a [`WireAction`] (internally tagged by `type`, the
/// fields in their declared order, those its `skip_serializing_if` says left out).
fn action(out: &mut String, a: &WireAction) {
    match a {
        WireAction::Build {
            card,
            age,
            left,
            right,
            bank,
            second_left,
            second_right,
            free,
            naval,
            free_move,
        } => {
            out.push_str("{\"type\":\"build\"");
            card_and_age(out, card, *age);
            field_u8(out, "left", *left);
            field_u8(out, "right", *right);
            if let Some(b) = bank {
                field_u8(out, "bank", *b);
            }
            nonzero_u8(out, "second_left", *second_left);
            nonzero_u8(out, "second_right", *second_right);
            if let Some(f) = free {
                out.push_str(",\"free\":");
                out.push_str(match f {
                    WireFree::Chain => "\"chain\"",
                    WireFree::FreeBuild => "\"free_build\"",
                    WireFree::FirstOfColour => "\"first_of_colour\"",
                    WireFree::FirstOfAge => "\"first_of_age\"",
                    WireFree::LastOfAge => "\"last_of_age\"",
                });
            }
            if let Some(n) = naval {
                field_str(out, "naval", n);
            }
            if let Some(m) = free_move {
                field_str(out, "free_move", m);
            }
        }
        WireAction::Wonder {
            card,
            age,
            left,
            right,
            second_left,
            second_right,
            take_part,
            bank,
            second_effect,
            pawn_age,
            naval,
        } => {
            out.push_str("{\"type\":\"wonder\"");
            card_and_age(out, card, *age);
            field_u8(out, "left", *left);
            field_u8(out, "right", *right);
            nonzero_u8(out, "second_left", *second_left);
            nonzero_u8(out, "second_right", *second_right);
            if *take_part {
                out.push_str(",\"take_part\":true");
            }
            if let Some(b) = bank {
                field_u8(out, "bank", *b);
            }
            if *second_effect {
                out.push_str(",\"second_effect\":true");
            }
            if let Some(p) = pawn_age {
                field_u8(out, "pawn_age", *p);
            }
            if let Some(n) = naval {
                field_str(out, "naval", n);
            }
        }
        WireAction::DiscardBuilt { card, age } => {
            out.push_str("{\"type\":\"discard_built\"");
            card_and_age(out, card, *age);
        }
        WireAction::Discard { card, age, yellow } => {
            out.push_str("{\"type\":\"discard\"");
            card_and_age(out, card, *age);
            if *yellow {
                out.push_str(",\"yellow\":true");
            }
        }
        WireAction::BuildDiscarded { card, age, free_move } => {
            out.push_str("{\"type\":\"build_discarded\"");
            card_and_age(out, card, *age);
            if let Some(f) = free_move {
                field_str(out, "free_move", f);
            }
        }
        WireAction::Pass {} => out.push_str("{\"type\":\"pass\""),
        WireAction::ChooseIsland { island, moves } => {
            out.push_str("{\"type\":\"choose_island\"");
            field_str(out, "island", island);
            if !moves.is_empty() {
                out.push_str(",\"moves\":");
                strings(out, moves);
            }
        }
        WireAction::StayOutOfNaval { stay_out } => {
            out.push_str("{\"type\":\"stay_out_of_naval\",\"stay_out\":");
            out.push_str(if *stay_out { "true" } else { "false" });
        }
        WireAction::ChooseSide { side } => {
            out.push_str("{\"type\":\"choose_side\"");
            field_str(out, "side", side);
        }
    }
    out.push('}');
}

fn card_and_age(out: &mut String, card: &str, age: Option<u8>) {
    field_str(out, "card", card);
    if let Some(a) = age {
        field_u8(out, "age", a);
    }
}

/// `,"key":"value"` (`key` needs no escaping: a literal of this module).
fn field_str(out: &mut String, key: &str, value: &str) {
    out.push_str(",\"");
    out.push_str(key);
    out.push_str("\":");
    string(out, value);
}

/// `,"key":n`.
fn field_u8(out: &mut String, key: &str, n: u8) {
    out.push_str(",\"");
    out.push_str(key);
    out.push_str("\":");
    uint(out, u64::from(n));
}

/// `,"key":n`, or nothing when `n` is 0.
fn nonzero_u8(out: &mut String, key: &str, n: u8) {
    if n != 0 {
        field_u8(out, key, n);
    }
}

fn comma(out: &mut String, i: usize) {
    if i > 0 {
        out.push(',');
    }
}

fn strings(out: &mut String, list: &[String]) {
    out.push('[');
    for (i, s) in list.iter().enumerate() {
        comma(out, i);
        string(out, s);
    }
    out.push(']');
}

fn u8s(out: &mut String, list: &[u8]) {
    out.push('[');
    for (i, &n) in list.iter().enumerate() {
        comma(out, i);
        uint(out, u64::from(n));
    }
    out.push(']');
}

fn opt_u8(out: &mut String, n: Option<u8>) {
    match n {
        Some(n) => uint(out, u64::from(n)),
        None => out.push_str("null"),
    }
}

fn opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

fn shared(out: &mut String, json: &SharedJson) {
    out.push_str(json.json());
}

/// A value written by `serde_json` (the parts of a state that are rare, nested or few).
fn serde<T: Serialize + ?Sized>(out: &mut String, value: &T) {
    match serde_json::to_string(value) {
        Ok(json) => out.push_str(&json),
        // Serialising these types cannot fail (no maps with non-string keys, no failing
        // `Serialize` impls); were it ever to, `null` keeps the message valid JSON.
        Err(_) => out.push_str("null"),
    }
}

/// A JSON string as `serde_json` writes it: as it is when nothing in it needs escaping (no `"`,
/// no `\`, no control character: every name of the game), else escaped by `serde_json`.
fn string(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        serde(out, s);
    }
}

/// A signed number in decimal, as `serde_json` writes integers.
fn int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    uint(out, n.unsigned_abs());
}

/// A number in decimal, as `serde_json` writes integers.
fn uint(out: &mut String, n: u64) {
    // Nearly every number of a state is below 100 (coins, counts, seats, ages).
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut digits = [b'0'; 20];
    let (mut i, mut n) = (digits.len(), n);
    while n > 0 {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&digits[i..]).unwrap_or_default());
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::msg::ServerMsg;

    fn same_as_serde_action(a: &WireAction) {
        let mut out = String::new();
        action(&mut out, a);
        assert_eq!(out, serde_json::to_string(a).unwrap());
    }

    #[test]
    fn every_kind_of_action_is_written_as_serde_writes_it() {
        let frees = [
            None,
            Some(WireFree::Chain),
            Some(WireFree::FreeBuild),
            Some(WireFree::FirstOfColour),
            Some(WireFree::FirstOfAge),
            Some(WireFree::LastOfAge),
        ];
        for free in frees {
            for (age, bank, second, naval) in [
                (None, None, 0, None),
                (Some(2), Some(3), 1, Some("red".to_string())),
                (Some(1), Some(0), 2, None),
            ] {
                same_as_serde_action(&WireAction::Build {
                    card: "Lumber Yard".into(),
                    age,
                    left: 1,
                    right: 12,
                    bank,
                    second_left: second,
                    second_right: 2 * second,
                    free,
                    naval: naval.clone(),
                    free_move: naval.clone().map(|_| "blue".into()),
                });
                for flags in [false, true] {
                    same_as_serde_action(&WireAction::Wonder {
                        card: "Temple".into(),
                        age,
                        left: 0,
                        right: 3,
                        second_left: second,
                        second_right: second,
                        take_part: flags,
                        bank,
                        second_effect: !flags,
                        pawn_age: age,
                        naval: naval.clone(),
                    });
                    same_as_serde_action(&WireAction::Discard { card: "Loom".into(), age, yellow: flags });
                    same_as_serde_action(&WireAction::StayOutOfNaval { stay_out: flags });
                }
                same_as_serde_action(&WireAction::DiscardBuilt { card: "Baths".into(), age });
                same_as_serde_action(&WireAction::BuildDiscarded {
                    card: "Press".into(),
                    age,
                    free_move: None,
                });
                same_as_serde_action(&WireAction::BuildDiscarded {
                    card: "Shipyard".into(),
                    age,
                    free_move: Some("yellow".into()),
                });
            }
        }
        same_as_serde_action(&WireAction::Pass {});
        same_as_serde_action(&WireAction::ChooseSide { side: "Night".into() });
        same_as_serde_action(&WireAction::ChooseIsland { island: "Misty Isle".into(), moves: vec![] });
        same_as_serde_action(&WireAction::ChooseIsland {
            island: "迷霧島".into(),
            moves: vec!["red".into(), "green".into()],
        });
        // Strings that need escaping, and ones that do not though they are not ASCII.
        for card in ["a \"quoted\" name", "back\\slash", "tab\there", "new\nline", "\u{1f}", "Œuvre é 中", ""]
        {
            same_as_serde_action(&WireAction::Discard { card: card.into(), age: None, yellow: false });
        }
    }

    #[test]
    fn cities_and_summaries_are_written_as_serde_writes_them() {
        let city = |pawns: Vec<u8>, military: Vec<i32>| WireCity {
            wonder: "The Colossus of Rhodes".into(),
            side: "B".into(),
            stages: 1,
            stages_total: 3,
            coins: 300,
            military,
            shields: 2,
            cards: vec!["Stone Pit".into(), "Altar".into(), "Caravansery".into()],
            pawns: pawns.clone(),
            debt: pawns,
        };
        for list in [
            vec![],
            vec![city(vec![], vec![])],
            vec![city(vec![1, 1, 3], vec![-1, 1, 3, 5]), city(vec![], vec![-1])],
        ] {
            assert_eq!(cities(&list), serde_json::to_string(&list).unwrap());
        }
        let summary = |cost: Option<&str>, edifice: i32| CitySummary {
            production: ProductionJson { fixed: "WWC".into(), either: vec!["WC".into(), "SO".into()] },
            for_sale: ProductionJson { fixed: String::new(), either: vec![] },
            prices: Prices { left: [2, 2, 2, 2, 1, 1, 1], right: [1, 2, 2, 2, 2, 2, 2] },
            science: [0, 2, 1],
            science_wild: 1,
            science_points: 12,
            shields: 3,
            military_points: -2,
            score_now: -1,
            next_stage_cost: cost.map(Into::into),
            edifice_points: edifice,
        };
        for list in [vec![], vec![summary(None, 0)], vec![summary(Some("OOL"), -3), summary(Some(""), 4)]] {
            assert_eq!(summaries(&list), serde_json::to_string(&list).unwrap());
        }
    }

    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        for n in [0i64, -1, 7, -10, 123, -2_147_483_648, i64::MIN, i64::MAX] {
            let mut out = String::new();
            int(&mut out, n);
            assert_eq!(out, serde_json::to_string(&n).unwrap());
        }
        for n in [0u64, 1, 9, 10, 99, 100, 255, 65_535, 1_234_567_890, u64::MAX] {
            let mut out = String::new();
            uint(&mut out, n);
            assert_eq!(out, serde_json::to_string(&n).unwrap());
        }
    }

    /// Every state of whole games (each seat's and a spectator's, at every step) is written as
    /// `serde_json` writes the message; see `table::tests` for the games played.
    pub(crate) fn check_state(state: &StateMsg) {
        let mut out = String::new();
        write_state_msg(&mut out, state);
        let msg = ServerMsg::State(Box::new(state.clone()));
        assert_eq!(out, serde_json::to_string(&msg).unwrap());
    }
}
