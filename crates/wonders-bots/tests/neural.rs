//! The `neural` bot: its embedded weights, its outputs against golden values computed in Python
//! from the same weight file (`training/train.py --fixture`), its legality over whole games of
//! several configurations, and the errors of bad weight files.

use std::collections::HashMap;
use std::sync::Arc;
use wonders_bots::neural::{
    EMBEDDED_RESIDUAL_WEIGHTS, EMBEDDED_WEIGHTS, Evaluation, FORMAT, FORMAT_RESIDUAL, NetworkError,
};
use wonders_bots::{Bot, HeuristicBot, Network, NeuralBot, bot_from_name};
use wonders_core::tensor::Encoder;
use wonders_core::{Catalog, Edition, Expansions, Game, Setup};

/// Parameters of the shipped network: 999 → 256 → 256 → (316 logits, 1 value), 1st edition.
const D: usize = 999;
const H: usize = 256;
const A: usize = 316;

#[test]
fn embedded_weights_load_with_the_first_edition_shape() {
    let enc = Encoder::new(Catalog::get(Edition::First));
    assert_eq!((enc.observation_len(), enc.action_count()), (D, A));
    // The plain network and the residual one (the perceptron and one weight more).
    for (net, extra) in [(Network::embedded(), 0), (Network::embedded_residual(), 1)] {
        assert_eq!(net.edition(), Edition::First);
        assert_eq!(net.encoder().observation_len(), D);
        assert_eq!(net.parameters(), D * H + H + H * H + H + H * A + A + H + 1 + extra);
    }
    assert_eq!(bot_from_name("neural", 3).unwrap().name(), "neural");
    let e = bot_from_name("neural:fast", 3).err().unwrap();
    assert_eq!(e, "bot `neural:fast`: `neural` takes one option, weights=FILE (a safetensors file)");
    // Other weights from a file: the embedded ones, written out, play as the embedded network.
    let dir = std::env::temp_dir().join(format!("neural-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Net.safetensors");
    std::fs::write(&path, EMBEDDED_RESIDUAL_WEIGHTS).unwrap();
    let name = format!("Neural:weights={}", path.display());
    assert_eq!(wonders_bots::normalize_bot_name(&name), format!("neural:weights={}", path.display()));
    let mut from_file = bot_from_name(&name, 3).unwrap();
    assert_eq!(from_file.name(), format!("neural:weights={}", path.display()));
    let game = Game::new(&Setup::new(4, 21)).unwrap();
    let legal = game.legal_actions(2);
    assert_eq!(from_file.choose(&game.view(2), &legal), NeuralBot::new().choose(&game.view(2), &legal));
    let bad = dir.join("bad.safetensors");
    std::fs::write(&bad, b"nonsense").unwrap();
    let e = bot_from_name(&format!("neural:weights={}", bad.display()), 3).err().unwrap();
    assert!(e.contains("not a safetensors weight file"), "{e}");
    let e = bot_from_name(&format!("neural:weights={}", dir.join("none").display()), 3).err().unwrap();
    assert!(e.contains("No such file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[derive(serde::Deserialize)]
struct Golden {
    seed: u64,
    every: usize,
    positions: Vec<Position>,
}

#[derive(serde::Deserialize)]
struct Position {
    decision: usize,
    seat: usize,
    observation: Vec<f32>,
    /// `Game.heuristic_values` in Python (written by fixtures of residual networks).
    #[serde(default)]
    heuristic_values: Vec<f32>,
    legal: Vec<usize>,
    logits: Vec<f32>,
    value: f32,
    best: usize,
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + b.abs())
}

/// Replays the fixture's game (4 heuristic bots, seat by seat as `play_out` does) and compares,
/// at each recorded decision, the observation, the network's logits and value and the bot's
/// choice with what NumPy computed from the same weight file.
#[test]
fn outputs_match_the_python_golden_values() {
    let plain = Network::embedded();
    assert_eq!(plain.heuristic_weight(), None);
    check_golden(plain, include_str!("data/neural_golden.json"));
}

/// The same for the residual network the `neural` bot plays, whose logits add the heuristic's
/// values: those are compared too, Python's binding (`Game.heuristic_values`) against Rust's.
#[test]
fn residual_outputs_match_the_python_golden_values() {
    let residual = Network::embedded_residual();
    assert!(residual.heuristic_weight().is_some_and(|w| w > 0.0));
    assert!(Arc::ptr_eq(NeuralBot::new().network(), &residual));
    check_golden(residual, include_str!("data/neural_residual_golden.json"));
}

fn check_golden(net: Arc<Network>, fixture: &str) {
    let golden: Golden = serde_json::from_str(fixture).unwrap();
    assert!(golden.positions.len() >= 5);
    let enc = *net.encoder();
    let mut game = Game::new(&Setup::new(4, golden.seed)).unwrap();
    let mut heuristic = HeuristicBot::new();
    let mut neural = NeuralBot::with_network(net.clone());
    let mut positions = golden.positions.iter().peekable();
    let mut n = 0;
    let mut obs = vec![0.0f32; D];
    let mut mask = vec![false; A];
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            let view = game.view(seat);
            let legal = game.legal_actions(seat);
            if let Some(p) = positions.next_if(|p| p.decision == n) {
                assert_eq!(p.decision % golden.every, 0);
                assert_eq!(p.seat, seat, "decision {n}");
                enc.observe(&view, &mut obs);
                let differ = (0..D).find(|&i| obs[i] != p.observation[i]);
                assert_eq!(differ, None, "decision {n}: the observations differ at this float");
                enc.mask(&legal, &mut mask);
                let legal_idx: Vec<usize> = (0..A).filter(|&i| mask[i]).collect();
                assert_eq!(legal_idx, p.legal, "decision {n}: legal indices");
                let (mut logits, value) = net.forward(&obs).unwrap();
                if let Some(w) = net.heuristic_weight() {
                    // The residual term: the heuristic's values, as Python's binding gave them.
                    let mut hv = vec![0.0f32; A];
                    wonders_bots::heuristic::index_values(&enc, &view, &legal, &mut hv);
                    assert_eq!(p.heuristic_values.len(), A, "decision {n}: the fixture's heuristic values");
                    for (i, (&h, &want)) in hv.iter().zip(&p.heuristic_values).enumerate() {
                        assert!(close(h, want), "decision {n}, index {i}: heuristic {h} vs {want}");
                    }
                    logits.iter_mut().zip(&hv).for_each(|(l, h)| *l += w * h);
                }
                for (&i, &want) in p.legal.iter().zip(&p.logits) {
                    assert!(close(logits[i], want), "decision {n}, index {i}: {} vs {want}", logits[i]);
                }
                assert!(close(value, p.value), "decision {n}: value {value} vs {}", p.value);
                let chosen = neural.choose(&view, &legal);
                assert_eq!(chosen, enc.choose(&legal, p.best).unwrap(), "decision {n}");
                assert_eq!(net.best_action(&view, &legal), Some(chosen));
                // The policy over the legal list: the chosen action has the largest probability.
                let Evaluation { policy, value: v } = net.evaluate(&view, &legal).unwrap();
                assert_eq!(policy.len(), legal.len());
                assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                let top = (0..legal.len()).max_by(|&a, &b| policy[a].total_cmp(&policy[b])).unwrap();
                assert_eq!(legal[top], chosen);
                assert_eq!(v, value);
            }
            n += 1;
            let action = heuristic.choose(&view, &legal);
            game.submit(seat, action).unwrap();
        }
    }
    assert!(positions.next().is_none(), "every golden position was reached");
}

/// Whole games with `neural` at every seat: every choice is one of the legal actions; in games
/// the network plays it follows the network, elsewhere it plays as the heuristic does.
#[test]
fn plays_only_legal_actions_in_every_configuration() {
    let net = Network::embedded_residual();
    let base = |players: u8, seed: u64| Setup::new(players, seed);
    let configs = [
        (base(4, 11), true),
        (base(7, 13), true),
        (base(2, 14), true),
        (Setup { teams: true, ..base(6, 15) }, true),
        (Setup { edition: Edition::Second, ..base(4, 16) }, false),
        (Setup { expansions: Expansions::EDIFICE, ..base(5, 17) }, false),
        (Setup { expansions: Expansions::ARMADA, ..base(4, 18) }, false),
    ];
    for (setup, fits) in configs {
        let mut game = Game::new(&setup).unwrap();
        let mut bots: Vec<NeuralBot> = (0..game.players()).map(|_| NeuralBot::new()).collect();
        let mut heuristic = HeuristicBot::new();
        let mut decisions = 0;
        while !game.is_over() {
            for seat in game.to_act() {
                if !game.must_act(seat) {
                    continue;
                }
                let view = game.view(seat);
                let legal = game.legal_actions(seat);
                assert_eq!(net.fits(&view), fits, "{setup:?}");
                let action = bots[seat].choose(&view, &legal);
                assert!(legal.contains(&action), "{setup:?}: {action:?} is not legal");
                if fits {
                    assert_eq!(Some(action), net.best_action(&view, &legal), "{setup:?}");
                } else {
                    assert_eq!(action, heuristic.choose(&view, &legal), "{setup:?}");
                    assert_eq!(net.evaluate(&view, &legal), None);
                }
                game.submit(seat, action).unwrap();
                decisions += 1;
            }
        }
        // 3 Ages of 6 turns at least, for each seat.
        assert!(decisions >= 18 * usize::from(setup.players), "{setup:?}: {decisions} decisions");
    }
}

/// Serialises tensors (float32) and metadata into a safetensors file.
fn file(tensors: &[(&str, Vec<usize>)], meta: &[(&str, &str)]) -> Vec<u8> {
    let data: Vec<(String, Vec<u8>, Vec<usize>)> = tensors
        .iter()
        .map(|(n, shape)| {
            // Every weight 0, but a residual network's heuristic weight 1.
            let fill = if *n == "hv_w" { 1.0f32 } else { 0.0 }.to_le_bytes();
            (n.to_string(), fill.repeat(shape.iter().product::<usize>()), shape.clone())
        })
        .collect();
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> = data
        .iter()
        .map(|(n, bytes, shape)| {
            (
                n.clone(),
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), bytes).unwrap(),
            )
        })
        .collect();
    let meta: HashMap<String, String> = meta.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    safetensors::serialize(views, Some(meta)).unwrap()
}

fn shapes(d: usize, a: usize) -> Vec<(&'static str, Vec<usize>)> {
    vec![
        ("obs_scale", vec![d]),
        ("w1", vec![d, 8]),
        ("b1", vec![8]),
        ("w2", vec![8, 8]),
        ("b2", vec![8]),
        ("pi_w", vec![8, a]),
        ("pi_b", vec![a]),
        ("v_w", vec![8, 1]),
        ("v_b", vec![1]),
    ]
}

#[test]
fn bad_weight_files_give_clear_errors() {
    let err = |bytes: &[u8]| Network::from_safetensors(bytes).unwrap_err();
    assert!(matches!(err(b"not a weight file"), NetworkError::Format(_)));
    assert!(matches!(err(&EMBEDDED_WEIGHTS[..EMBEDDED_WEIGHTS.len() / 2]), NetworkError::Format(_)));

    let meta = [("format", FORMAT), ("edition", "1e")];
    // A small network of the right shape loads, and plays.
    let net = Network::from_safetensors(&file(&shapes(D, A), &meta)).unwrap();
    assert_eq!(net.parameters(), D * 8 + 8 + 64 + 8 + 8 * A + A + 8 + 1);
    let game = Game::new(&Setup::new(4, 1)).unwrap();
    let legal = game.legal_actions(0);
    let mut bot = NeuralBot::with_network(Arc::new(net));
    assert!(legal.contains(&bot.choose(&game.view(0), &legal)));

    let e = err(&file(&shapes(D, A), &[("format", "other"), ("edition", "1e")]));
    assert_eq!(
        e.to_string(),
        format!("weight file metadata: format `other`, expected `{FORMAT}` or `{FORMAT_RESIDUAL}`")
    );
    // A residual network needs its heuristic weight, and uses it.
    let residual = [("format", FORMAT_RESIDUAL), ("edition", "1e")];
    assert_eq!(err(&file(&shapes(D, A), &residual)).to_string(), "weight file tensor `hv_w`: missing");
    let mut with_hv = shapes(D, A);
    with_hv.push(("hv_w", vec![1]));
    let net = Network::from_safetensors(&file(&with_hv, &residual)).unwrap();
    assert_eq!(net.parameters(), D * 8 + 8 + 64 + 8 + 8 * A + A + 8 + 1 + 1);
    assert_eq!(net.heuristic_weight(), Some(1.0));
    // With a silent perceptron it plays a card and kind of action the heuristic values the best,
    // in every position of a game.
    let enc = *net.encoder();
    let mut bot = NeuralBot::with_network(Arc::new(net));
    let mut heuristic = HeuristicBot::new();
    let mut game = Game::new(&Setup::new(4, 3)).unwrap();
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            let (view, legal) = (game.view(seat), game.legal_actions(seat));
            let h = heuristic.choose(&view, &legal);
            let mut hv = vec![1.0f32; A];
            wonders_bots::heuristic::index_values(&enc, &view, &legal, &mut hv);
            // Both the heuristic's choice and the bot's are valued the best (ties: either).
            assert_eq!(hv[enc.action_index(&h)], 0.0);
            assert_eq!(hv[enc.action_index(&bot.choose(&view, &legal))], 0.0);
            game.submit(seat, h).unwrap();
        }
    }
    let e = err(&file(&shapes(D, A), &[("format", FORMAT), ("edition", "3e")]));
    assert!(matches!(e, NetworkError::Metadata(_)), "{e}");
    // The 2nd edition's catalog has another size.
    let e = err(&file(&shapes(D, A), &[("format", FORMAT), ("edition", "2e")]));
    assert!(
        matches!(e, NetworkError::Encoder { edition: Edition::Second, observation: D, actions: A, .. }),
        "{e}"
    );
    let e = err(&file(&shapes(10, A), &meta));
    assert!(
        e.to_string().contains(&format!(
            "the network takes 10 observation floats and {A} actions, but 1e games have {D}"
        )),
        "{e}"
    );
    let mut missing = shapes(D, A);
    missing.retain(|(n, _)| *n != "v_b");
    assert_eq!(err(&file(&missing, &meta)).to_string(), "weight file tensor `v_b`: missing");
    let mut wrong = shapes(D, A);
    wrong[4].1 = vec![9];
    assert_eq!(err(&file(&wrong, &meta)).to_string(), "weight file tensor `b2`: shape [9], expected [8]");
    // An observation of the wrong length is an error, not a panic.
    let e = Network::embedded().forward(&[0.0; 3]).unwrap_err();
    assert_eq!(e.to_string(), format!("an observation of 3 floats, expected {D}"));
}
