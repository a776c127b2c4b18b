//! The payment solver against a brute-force solver on many random positions.
//!
//! The brute force assigns every needed unit to a concrete unit of supply (own fixed units and
//! either/or cards for free; each neighbour's sellable units and either/or cards at that side's
//! price), each supply unit used at most once, and keeps the Pareto-minimal (left, right) sums
//! within the budget.

use proptest::prelude::*;
use wonders_core::payment::{Market, Options, solve};
use wonders_core::{Production, Resource, ResourceSet, Resources};

#[derive(Clone, Copy)]
struct Unit {
    set: ResourceSet,
    side: usize, // 0 own, 1 left, 2 right
}

fn units_of(p: &Production, side: usize, out: &mut Vec<Unit>) {
    for r in Resource::ALL {
        for _ in 0..p.fixed.get(r) {
            out.push(Unit { set: r.bit(), side });
        }
    }
    for &c in p.choices() {
        out.push(Unit { set: c, side });
    }
}

fn brute(m: &Market, need: &Resources, budget: u16) -> Vec<(u8, u8)> {
    let mut supply = Vec::new();
    units_of(m.own, 0, &mut supply);
    units_of(m.left, 1, &mut supply);
    units_of(m.right, 2, &mut supply);
    let mut wanted = Vec::new();
    for r in Resource::ALL {
        for _ in 0..need.get(r) {
            wanted.push(r);
        }
    }
    let mut all = Vec::new();
    fn go(
        m: &Market,
        wanted: &[Resource],
        supply: &[Unit],
        used: &mut Vec<bool>,
        cost: (u16, u16),
        all: &mut Vec<(u16, u16)>,
    ) {
        let Some((&r, rest)) = wanted.split_first() else {
            all.push(cost);
            return;
        };
        for i in 0..supply.len() {
            if used[i] || !supply[i].set.contains(r) {
                continue;
            }
            used[i] = true;
            let c = match supply[i].side {
                0 => cost,
                1 => (cost.0 + m.prices[0][r as usize] as u16, cost.1),
                _ => (cost.0, cost.1 + m.prices[1][r as usize] as u16),
            };
            go(m, rest, supply, used, c, all);
            used[i] = false;
        }
    }
    let mut used = vec![false; supply.len()];
    go(m, &wanted, &supply, &mut used, (0, 0), &mut all);
    let feasible: Vec<(u16, u16)> = all.into_iter().filter(|c| c.0 + c.1 <= budget).collect();
    let mut front: Vec<(u8, u8)> = feasible
        .iter()
        .filter(|a| !feasible.iter().any(|b| b.0 <= a.0 && b.1 <= a.1 && b != *a))
        .map(|a| (a.0 as u8, a.1 as u8))
        .collect();
    front.sort();
    front.dedup();
    front
}

fn production() -> impl Strategy<Value = Production> {
    (
        prop::array::uniform7(prop_oneof![4 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)]),
        prop::collection::vec(1u8..127, 0..3),
    )
        .prop_map(|(fixed, choices)| {
            let mut p = Production::fixed(Resources::new(fixed));
            for c in choices {
                p.add_choice(ResourceSet(c));
            }
            p
        })
}

fn need() -> impl Strategy<Value = Resources> {
    prop::collection::vec(0usize..7, 0..5).prop_map(|v| {
        let mut r = Resources::NONE;
        for i in v {
            r.add(Resource::ALL[i], 1);
        }
        r
    })
}

fn prices() -> impl Strategy<Value = [[u8; 7]; 2]> {
    (any::<[bool; 4]>()).prop_map(|[lr, lm, rr, rm]| {
        let mut p = [[2u8; 7]; 2];
        for r in Resource::ALL {
            let (l, rt) = if r.is_raw() { (lr, rr) } else { (lm, rm) };
            if l {
                p[0][r as usize] = 1;
            }
            if rt {
                p[1][r as usize] = 1;
            }
        }
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn solver_matches_brute_force(
        own in production(),
        left in production(),
        right in production(),
        prices in prices(),
        need in need(),
        budget in 0u16..12,
    ) {
        let m = Market { own: &own, left: &left, right: &right, prices };
        let mut out = Options::new();
        solve(&m, &need, budget, &mut out);
        let mut got = out.to_vec();
        got.sort();
        prop_assert_eq!(got, brute(&m, &need, budget));
    }
}
