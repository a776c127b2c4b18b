//! The bot protocol's list of actions (`docs/src/research/bot-protocol.md`, section *Actions*):
//! every example is an action the engine accepts, and every action type and every field of one has
//! an example — so an action kind or field added to the wire without documenting it fails here.
//!
//! The types and fields are read from the wire format itself (the names serde's own errors list
//! for an unknown type or field), not from a copy kept here.

use serde_json::Value;
use wonders_core::wire::WireAction;
use wonders_core::{Catalog, Edition};

fn doc() -> String {
    let path = format!("{}/../../docs/src/research/bot-protocol.md", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// The examples of the *Actions* table: (the row, an example's JSON) for each code span of a row
/// that holds a JSON object. A row without one (a place left to fill) gives none.
fn examples(doc: &str) -> Vec<(String, String)> {
    let start = doc.find("\n## Actions\n").expect("the protocol has a section `## Actions`");
    let section = &doc[start + 1..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |e| e + 1)];
    let mut out = Vec::new();
    for row in section.lines().filter(|l| l.starts_with('|')) {
        // Code spans are the odd pieces between backticks.
        for span in row.split('`').skip(1).step_by(2).filter(|s| s.starts_with('{')) {
            out.push((row.to_string(), span.to_string()));
        }
    }
    out
}

/// The names serde lists after `expected one of` (or `expected`) in an error message.
fn listed(message: &str) -> Vec<String> {
    let Some(at) = message.find("expected") else { return Vec::new() };
    message[at..].split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// Every action type of the wire format.
fn action_types() -> Vec<String> {
    let err = serde_json::from_str::<WireAction>(r#"{"type": "no such type"}"#).unwrap_err();
    let types = listed(&err.to_string());
    assert!(types.contains(&"build".to_string()), "read from `{err}`");
    types
}

/// Every field of action type `kind`.
fn fields(kind: &str) -> Vec<String> {
    let probe = serde_json::json!({"type": kind, "no such field": 0});
    match serde_json::from_value::<WireAction>(probe) {
        Ok(_) => panic!("`{kind}` accepts an unknown field"),
        Err(err) if err.to_string().contains("there are no fields") => Vec::new(),
        Err(err) => {
            let fields = listed(&err.to_string());
            assert!(!fields.is_empty(), "`{kind}`: no fields read from `{err}`");
            fields
        }
    }
}

/// The data an example is checked against: the 2nd edition's for `choose_side` (Day/Night), else
/// the 1st edition with both expansions (every card, board and island of its games).
fn catalog(wire: &WireAction) -> &'static Catalog {
    match wire {
        WireAction::ChooseSide { .. } => Catalog::get(Edition::Second),
        _ => Catalog::with_builtin_armada(Edition::First, true),
    }
}

#[test]
fn every_documented_action_is_accepted_by_the_engine() {
    let doc = doc();
    let examples = examples(&doc);
    assert!(examples.len() >= 20, "{} examples found", examples.len());
    for (row, json) in &examples {
        // Refused on an unknown type or field, as a bot's answer would be.
        let wire: WireAction = serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("`{json}` is not a wire action ({e}): {row}"));
        // Every name exists in the data (cards, islands, fleets, sides).
        let catalog = catalog(&wire);
        let action = wire.to_action(catalog).unwrap_or_else(|e| panic!("`{json}`: {e}"));
        // And it is the action the example says: written back, each field given has its value.
        let back = serde_json::to_value(WireAction::from_action(catalog, &action)).unwrap();
        let given: Value = serde_json::from_str(json).unwrap();
        for (key, value) in given.as_object().unwrap() {
            // A field written with its default value (0, false) is left out when written back.
            let default = matches!(value, Value::Bool(false)) || value.as_u64() == Some(0);
            match back.get(key) {
                Some(v) => assert_eq!(v, value, "`{json}`: `{key}` reads back as {back}"),
                None => assert!(default, "`{json}`: `{key}` is lost when written back: {back}"),
            }
        }
    }
}

#[test]
fn every_action_type_and_field_has_an_example() {
    let doc = doc();
    let examples: Vec<Value> =
        examples(&doc).iter().map(|(_, json)| serde_json::from_str(json).unwrap()).collect();
    let mut missing = Vec::new();
    for kind in action_types() {
        let of_kind: Vec<&Value> = examples.iter().filter(|e| e["type"] == kind.as_str()).collect();
        if of_kind.is_empty() {
            missing.push(format!("`{kind}`"));
            continue;
        }
        for field in fields(&kind) {
            if !of_kind.iter().any(|e| e.get(&field).is_some()) {
                missing.push(format!("`{kind}` with `{field}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/src/research/bot-protocol.md, section Actions, has no example of {}",
        missing.join(", ")
    );
}

/// The handshake documents the fields the engine sends.
#[test]
fn the_documented_hello_names_the_expansions_and_teams() {
    let doc = doc();
    for needle in [r#""expansions": ["edifice", "armada"], "teams": false"#, "`expansions`", "`teams`"] {
        assert!(doc.contains(needle), "the protocol's hello shows {needle}");
    }
}
