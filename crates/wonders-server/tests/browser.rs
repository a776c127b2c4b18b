//! End to end in a real headless Chromium driven over WebDriver: create a table with three bots
//! from the lobby, play a whole game by clicking (checking the city summary, a greyed card with
//! its reason, the payment chooser, the Age-end panel, the phone layout, the score sheet with its
//! chart), look at it in Chinese and as a spectator; then take back a choice, choose a side in the
//! 2nd edition, play the Free City step, and score a table on the score pad. A second test (one
//! browser at a time) enters a Free City table and an Edifice table on the score pad, then plays
//! an Edifice game: the pawns and debt in the city summaries, the project's fate in the Age-end
//! panel and its log block, the edifice category in the sheet and chart, on a phone too.
//! A third test plays an Armada game from the lobby to the end: the shipyards shown are the
//! view's, the naval construction is in the payment chooser, the exploration and Forgotten
//! Port's choice are drawn, each Age end's naval results are the server's, and the score sheet
//! has the naval, fleet and islands categories, on a phone and in Chinese too.
//! Screenshots go to `target/screenshots/` at the workspace root.
//!
//! Skipped (with a message) when `chromium` or `chromedriver` is not installed; CI installs them
//! (Debian's `chromium` and `chromium-driver`).

mod common;

use common::{TestServer, play_http, temp_db};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// A chromedriver process, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn screenshots_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    let path = screenshots_dir().join(name);
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

async fn body_data(c: &Client, key: &str) -> String {
    let v = c.execute(&format!("return document.body.dataset.{key} || ''"), vec![]).await.unwrap();
    v.as_str().unwrap_or("").to_string()
}

async fn wait_for(c: &Client, what: &str, js_condition: &str) {
    let start = Instant::now();
    loop {
        let v = c.execute(&format!("return !!({js_condition})"), vec![]).await.unwrap();
        if v.as_bool() == Some(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn first_enabled(c: &Client, css: &str) -> Option<fantoccini::elements::Element> {
    for e in c.find_all(Locator::Css(css)).await.unwrap() {
        if e.is_enabled().await.unwrap_or(false) && e.is_displayed().await.unwrap_or(false) {
            return Some(e);
        }
    }
    None
}

/// One browser at a time: the tests of this file share the 2-core machine with everything else.
static BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A headless Chromium driven by a chromedriver (both stopped when dropped), or `None` (with a
/// message) when they are not installed outside CI.
struct Browser {
    client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

async fn browser() -> Option<Browser> {
    let (Some(chromium), Some(chromedriver)) =
        (find_program(&["chromium", "chromium-browser", "google-chrome"]), find_program(&["chromedriver"]))
    else {
        // CI installs them (.ci/run) and sets CI=true: there a missing browser is a failure.
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "the browser test needs chromium and chromedriver, and CI must install them"
        );
        println!(
            "SKIPPED: the browser test needs chromium and chromedriver (apt-get install chromium chromium-driver)"
        );
        return None;
    };
    let port = free_port();
    let driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = tempfile::tempdir().unwrap();
    let caps = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1280,1100",
                format!("--user-data-dir={}", profile.path().display()),
            ]
        }
    });
    let caps = caps.as_object().unwrap().clone().into_iter().collect();
    let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    builder.capabilities(caps);
    let start = Instant::now();
    let client = loop {
        match builder.connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(c) => break c,
            Err(e) => {
                assert!(start.elapsed() < Duration::from_secs(30), "chromedriver did not answer: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    Some(Browser { client, _driver: driver, _profile: profile })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_headless_chromium() {
    let _one = BROWSER.lock().await;
    let Some(b) = browser().await else {
        return;
    };
    let c = b.client.clone();
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;

    // The lobby: 4 players, seats 2 to 4 bots (the default for seats after the first).
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "the lobby", "document.getElementById('create')").await;
    c.find(Locator::Id("players")).await.unwrap().select_by_value("4").await.unwrap();
    let name = c.find(Locator::Id("name")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("Ada").await.unwrap();
    let bots = js(&c, "return [...document.querySelectorAll('#seat-1 option')].map(o => o.value)").await;
    assert_eq!(bots, json!(["", "heuristic", "random", "search"]), "every bot level is offered");
    shot(&c, "01-lobby.png").await;
    c.find(Locator::Id("create")).await.unwrap().click().await.unwrap();
    wait_for(
        &c,
        "the game to start",
        "document.body.dataset.status === 'playing' && document.querySelector('button.act')",
    )
    .await;
    let url = c.current_url().await.unwrap();
    let table = url.path().trim_start_matches("/t/").to_string();
    assert_eq!(js(&c, "return document.title").await, json!("● Your move · 7 Wonders"));

    // Defect 1: two copies of a card in the hand both get their buttons (the page used to
    // match actions by name and consume the first match). The hand is made to hold exactly two
    // copies of its first card (the deal may already hold two of a card), each with two ways to
    // pay: the chooser of the copy clicked opens alone.
    let dup = js(
        &c,
        "const st = current.state; const copy = JSON.parse(JSON.stringify(st));
         const name = copy.view.hand[0];
         copy.view.hand = [name, name].concat(copy.view.hand.filter(n => n !== name)).slice(0, st.view.hand.length);
         copy.legal = copy.legal.filter(a => a.card !== name || a.type !== 'build')
           .concat([{type: 'build', card: name, left: 2, right: 0, bank: 0}, {type: 'build', card: name, left: 0, right: 2, bank: 0}]);
         current.state = copy; current.render();
         const cards = () => [...document.querySelectorAll('.hand .card')].filter(e => e.dataset.card === name);
         const counts = cards().map(e => e.querySelectorAll('button').length);
         let opened = null;
         const toggle = cards()[0].querySelector('button.choose');
         if (toggle) { toggle.click(); opened = cards().map(e => e.querySelectorAll('.chooser.open').length); }
         current.open.clear(); current.state = st; current.render();
         return [counts, opened]",
    )
    .await;
    let counts: Vec<u64> = dup[0].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(counts.len(), 2);
    assert!(counts[0] > 0 && counts[0] == counts[1], "both copies have the same buttons: {counts:?}");
    assert_eq!(dup[1], json!([1, 0]), "only the copy clicked opens its chooser");
    // Defect 8: trade income is told apart from the discard's coins.
    assert_eq!(
        js(&c, "return tradeIncome([{seat: 0, left: 2, right: 1}, {seat: 1, left: 0, right: 0}], 3)").await,
        json!([0, 2, 1])
    );

    // The city summary: production, science and the running score, as the server computes them.
    let me = s.state(&table, None).await;
    assert!(me["summaries"].as_array().unwrap().len() == 4);
    let shown = js(
        &c,
        "const c = document.querySelector('.city.mine');
         return [c.querySelector('.score-now').textContent, c.querySelectorAll('.prod svg.res').length,
                 c.querySelectorAll('.trade-line').length, document.querySelectorAll('.res-key svg.res').length]",
    )
    .await;
    let score_now = me["summaries"][0]["score_now"].as_i64().unwrap();
    assert_eq!(shown[0], json!(format!("≈ {score_now} pts")));
    assert!(shown[1].as_u64().unwrap() >= 1, "the wonder's own resource is drawn as an icon");
    assert_eq!(shown[2], json!(2), "what can be bought from each neighbour");
    assert_eq!(shown[3], json!(7), "a key to the seven resources");
    c.execute("document.querySelector('.cities').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "02-city-summary.png").await;
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(&c, "02b-game-start.png").await;

    // Play by clicking: a direct action button, or every third time a payment chooser.
    let mut clicks = 0;
    let (mut chooser_seen, mut greyed_seen, mut age_end_seen) = (false, false, false);
    let started = Instant::now();
    while body_data(&c, "status").await != "over" {
        assert!(started.elapsed() < Duration::from_secs(240), "the game did not end in time");
        let turn = body_data(&c, "turnId").await;
        if !greyed_seen
            && js(&c, "return !!document.querySelector('.hand .card.unbuildable .reason')").await
                == json!(true)
        {
            greyed_seen = true;
            // Defect 10: greyed, with the reason, and no build button.
            let card = js(
                &c,
                "const e = document.querySelector('.hand .card.unbuildable'); e.scrollIntoView({block: 'center'});
                 return [e.querySelector('.reason').textContent, e.querySelectorAll('.act-build, .choose').length,
                         getComputedStyle(e.querySelector('.card-head')).filter]",
            )
            .await;
            let reason = card[0].as_str().unwrap();
            assert!(reason.len() > 4 && !reason.contains('—'), "a reason in words: {reason}");
            assert_eq!(card[1], json!(0));
            assert!(card[2].as_str().unwrap().contains("grayscale"), "{}", card[2]);
            shot(&c, "03-greyed-card.png").await;
        }
        // Defect 5: one wonder control, never a stage button on every card.
        assert_eq!(js(&c, "return document.querySelectorAll('.card .act-wonder').length").await, json!(0));
        assert!(
            js(&c, "return document.querySelectorAll('.wonder-ctl').length").await.as_u64().unwrap() <= 1
        );
        if !age_end_seen && js(&c, "return !!document.getElementById('age-end')").await == json!(true) {
            age_end_seen = true;
            // Defect 2: each conflict's token, and each city's tokens shown one by one.
            let st = s.state(&table, None).await;
            assert_eq!(st["age_ends"].as_array().unwrap().len(), 1);
            let tokens: Vec<usize> = st["view"]["cities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["military"].as_array().unwrap().len())
                .collect();
            let shown = js(
                &c,
                "return [...document.querySelectorAll('.cities .city')].sort((a, b) => a.dataset.city - b.dataset.city)
                   .map(c => c.querySelectorAll('.tokens .token').length)",
            )
            .await;
            assert_eq!(shown, json!(tokens));
            let rows = js(&c, "return document.querySelectorAll('#age-end tbody tr').length").await;
            assert_eq!(rows, json!(4));
            assert!(
                js(&c, "return document.querySelector('.log-age-end').textContent")
                    .await
                    .as_str()
                    .unwrap()
                    .contains("End of Age I")
            );
            c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
            shot(&c, "04-age-end.png").await;
            c.set_window_size(390, 844).await.unwrap();
            c.execute("window.scrollTo(0, document.querySelector('.hand').offsetTop - 50)", vec![])
                .await
                .unwrap();
            shot(&c, "05-phone-hand.png").await;
            let overflow = js(&c, "return document.documentElement.scrollWidth - window.innerWidth").await;
            assert!(overflow.as_i64().unwrap() <= 0, "the phone layout scrolls sideways by {overflow}px");
            c.execute("document.querySelector('.city.mine').scrollIntoView()", vec![]).await.unwrap();
            shot(&c, "05b-phone-city.png").await;
            c.set_window_size(1280, 1100).await.unwrap();
        }
        let chooser = if clicks % 3 == 0 { first_enabled(&c, "button.choose").await } else { None };
        let button = match chooser {
            Some(ch) => {
                click(&c, &ch).await;
                wait_for(&c, "the payment chooser", "document.querySelector('.chooser.open button.act')")
                    .await;
                // Defect 4: cheapest first, each with its total and the coins at hand. Each open
                // chooser on its own (one opened at an earlier turn may still be open beside it).
                let open = js(
                    &c,
                    "return [...document.querySelectorAll('.chooser.open')]
                       .map(ch => [...ch.querySelectorAll('.options button')].map(b => b.textContent))",
                )
                .await;
                for totals in open.as_array().unwrap() {
                    let totals: Vec<String> =
                        totals.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
                    let numbers: Vec<u32> = totals
                        .iter()
                        .map(|t| t.split_whitespace().next().unwrap().parse().unwrap_or(0))
                        .collect();
                    assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
                    // A paid way that costs nothing at all (e.g. a stage bought with no coins
                    // while another of its ways costs some) reads "no cost", not a total.
                    assert!(
                        totals.iter().all(|t| t.contains("you have")
                            || t.contains("free")
                            || t.starts_with("no cost")),
                        "{totals:?}"
                    );
                }
                if !chooser_seen {
                    chooser_seen = true;
                    shot(&c, "06-payment-chooser.png").await;
                }
                first_enabled(&c, ".chooser.open button.act").await
            }
            None => first_enabled(&c, "button.act").await,
        };
        let Some(button) = button else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        click(&c, &button).await;
        clicks += 1;
        wait_for(
            &c,
            "the action to be applied",
            &format!("document.body.dataset.turnId !== '{turn}' || document.body.dataset.status === 'over'"),
        )
        .await;
    }
    assert!(clicks >= 18, "{clicks} clicks");
    assert!(
        greyed_seen && age_end_seen,
        "greyed card seen: {greyed_seen}; Age-end panel seen: {age_end_seen}"
    );
    wait_for(&c, "the score sheet", "document.querySelector('.score-sheet')").await;
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(&c, "07-final-scores.png").await;

    // The score sheet shows the server's totals, coins and places, "you finished …", a chart and
    // every city expanded.
    let state = s.state(&table, None).await;
    let totals: Vec<String> =
        state["scores"].as_array().unwrap().iter().map(|l| l["total"].to_string()).collect();
    let shown = js(
        &c,
        "return [...document.querySelectorAll('.score-sheet td.cat-total')].map(td => td.textContent)",
    )
    .await;
    let shown: Vec<String> =
        shown.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(shown, totals);
    let coins: Vec<String> =
        state["scores"].as_array().unwrap().iter().map(|l| l["coins"].to_string()).collect();
    let shown = js(
        &c,
        "return [...document.querySelectorAll('.score-sheet td.coins-left')].map(td => td.textContent)",
    )
    .await;
    assert_eq!(shown, json!(coins));
    let rank = state["scores"][0]["rank"].as_u64().unwrap();
    let finish = js(&c, "return document.getElementById('finish').textContent").await;
    let ordinal = ["", "1st", "2nd", "3rd", "4th"][rank as usize];
    assert!(finish.as_str().unwrap().starts_with(&format!("You finished {ordinal} of 4")), "{finish}");
    assert_eq!(js(&c, "return document.querySelectorAll('#score-chart g').length").await, json!(4 + 7));
    assert_eq!(
        js(&c, "return document.querySelectorAll('.city-grid .city .built.expanded').length").await,
        json!(4)
    );
    assert!(
        js(&c, "return document.getElementById('record').getAttribute('href')")
            .await
            .as_str()
            .unwrap()
            .ends_with("/record")
    );
    c.execute("document.getElementById('score-chart').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "08-chart-and-cities.png").await;

    // Defect 9: in Chinese, on a phone-sized screen: labels, edition, sides and resources.
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(
        &c,
        "Chinese labels",
        "document.querySelector('.score-sheet th.cat-military').textContent === '軍事'",
    )
    .await;
    let zh = js(&c, "return [document.querySelector('.table-head').textContent, document.querySelector('.city .wonder-name').textContent, document.querySelector('svg.res title').textContent]").await;
    assert!(zh[0].as_str().unwrap().contains("第一版"), "{zh}");
    assert!(zh[1].as_str().unwrap().contains('面'), "{zh}");
    assert!(
        ["木材", "石材", "黏土", "礦石", "玻璃", "織布", "紙草"].contains(&zh[2].as_str().unwrap()),
        "{zh}"
    );
    c.set_window_size(390, 844).await.unwrap();
    c.execute("window.scrollTo(0, document.querySelector('.cities').offsetTop - 50)", vec![]).await.unwrap();
    shot(&c, "09-phone-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();

    // A rematch from the score sheet: a new table with the same bots, this player seated.
    c.set_window_size(1280, 1100).await.unwrap();
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    c.find(Locator::Id("rematch")).await.unwrap().click().await.unwrap();
    wait_for(
        &c,
        "the rematch",
        &format!("location.pathname !== '/t/{table}' && document.body.dataset.status === 'playing'"),
    )
    .await;
    let rematch = c.current_url().await.unwrap().path().trim_start_matches("/t/").to_string();
    assert_eq!(s.state(&table, None).await["table"]["rematch"], serde_json::json!(rematch));

    // A spectator (no token) of the first table sees every city and no hand.
    c.execute("localStorage.removeItem('wonders.tokens')", vec![]).await.unwrap();
    c.goto(&s.url(&format!("/t/{table}"))).await.unwrap();
    wait_for(&c, "the spectator's page", "document.querySelector('.city-grid .city')").await;
    let hands = c.execute("return document.querySelectorAll('.hand').length", vec![]).await.unwrap();
    assert_eq!(hands.as_i64(), Some(0));
    let cities = c.execute("return document.querySelectorAll('.city').length", vec![]).await.unwrap();
    assert_eq!(cities.as_i64(), Some(4));
    shot(&c, "10-spectator.png").await;

    // The lobby names tables by their players, with Watch (or Join) and no hex ids.
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "the lists", "document.querySelector('#finished-tables .table-row')").await;
    let row = js(&c, "const r = document.querySelector('#finished-tables .table-row'); return [r.querySelector('.table-title').textContent, r.querySelector('.watch').textContent, r.textContent.includes(r.dataset.table)]").await;
    assert_eq!(
        row,
        json!(["Ada · Bot 2 (heuristic) · Bot 3 (heuristic) · Bot 4 (heuristic)", "Watch", false])
    );
    shot(&c, "10b-lobby-tables.png").await;

    take_back_a_choice(&c, &s).await;
    second_edition_side_choice(&c, &s).await;
    free_city_step(&c, &s).await;
    team_game(&c, &s).await;
    score_pad(&c, &s).await;
    c.close().await.unwrap();
    s.stop().await;
}

/// Clicks an element once scrolled to the middle of the screen (clear of the sticky header).
async fn click(c: &Client, e: &fantoccini::elements::Element) {
    c.execute("arguments[0].scrollIntoView({block: 'center'})", vec![serde_json::to_value(e).unwrap()])
        .await
        .unwrap();
    e.click().await.unwrap();
}

async fn js(c: &Client, code: &str) -> Value {
    c.execute(code, vec![]).await.unwrap()
}

/// Sits the browser at `seat` of `table` with `token`, and opens the table.
async fn sit(c: &Client, s: &TestServer, table: &str, seat: u8, token: &str) {
    c.goto(&s.url("/")).await.unwrap();
    let mut all = serde_json::Map::new();
    all.insert(table.to_string(), json!({"seat": seat, "token": token}));
    let tokens = Value::Object(all).to_string();
    c.execute("localStorage.setItem('wonders.tokens', arguments[0])", vec![json!(tokens)]).await.unwrap();
    c.goto(&s.url(&format!("/t/{table}"))).await.unwrap();
}

/// Defect 3: the pending choice is shown, taken back and changed before the turn resolves.
async fn take_back_a_choice(c: &Client, s: &TestServer) {
    let table = s.create(3, "1e", "A", &[None, None, Some("heuristic")]).await;
    let ada = s.take(&table, 0, "Ada").await;
    let bob = s.take(&table, 1, "Bob").await;
    sit(c, s, &table, 0, &ada).await;
    wait_for(c, "the hand", "document.querySelectorAll('button.act-discard').length >= 2").await;
    let names = js(c, "return [...document.querySelectorAll('.hand .card')].map(e => e.dataset.card)").await;
    let (first, second) = (names[0].as_str().unwrap().to_string(), names[1].as_str().unwrap().to_string());
    js(c, "document.querySelectorAll('button.act-discard')[0].click()").await;
    wait_for(c, "the pending choice", "document.getElementById('pending')").await;
    let pending = js(c, "return document.getElementById('pending').textContent").await;
    assert!(pending.as_str().unwrap().contains(&first), "{pending}");
    assert_eq!(js(c, "return document.querySelector('.card.picked').dataset.card").await, json!(first));
    c.execute("window.scrollTo(0, document.querySelector('.hand').offsetTop - 60)", vec![]).await.unwrap();
    shot(c, "11-pending-choice.png").await;
    click(c, &c.find(Locator::Id("take-back")).await.unwrap()).await;
    wait_for(
        c,
        "the choice taken back",
        "document.body.dataset.pending === '0' && document.body.dataset.legal !== '0'",
    )
    .await;
    js(c, "document.querySelectorAll('button.act-discard')[1].click()").await;
    wait_for(c, "the new choice", "document.getElementById('pending')").await;
    let pending = js(c, "return document.getElementById('pending').textContent").await;
    assert!(pending.as_str().unwrap().contains(&second), "{pending}");
    // Bob chooses: the turn resolves with Ada's second choice (3 + 3 coins), and can no longer
    // be taken back.
    let st = s.state(&table, Some(&bob)).await;
    let card = st["view"]["hand"][0].clone();
    let (status, body) =
        s.act(&table, &bob, st["turn_id"].as_u64(), &json!({"type": "discard", "card": card})).await;
    assert_eq!(status, 200, "{body}");
    wait_for(c, "turn 2", "document.querySelector('.phase').textContent.includes('Turn 2')").await;
    assert_eq!(js(c, "return document.getElementById('pending')").await, Value::Null);
    assert_eq!(s.state(&table, None).await["view"]["cities"][0]["coins"], json!(6));
    let log = js(c, "return document.querySelector('.log-turn').textContent").await;
    assert!(log.as_str().unwrap().contains("+3 discard"), "{log}");
}

/// Defect 6: the 2nd edition's side choice shows both sides' stages.
async fn second_edition_side_choice(c: &Client, s: &TestServer) {
    let table = s.create(3, "2e", "choose", &[None, Some("heuristic"), Some("heuristic")]).await;
    let ada = s.take(&table, 0, "Ada").await;
    sit(c, s, &table, 0, &ada).await;
    wait_for(c, "the side choice", "document.querySelectorAll('#side-choice .side').length === 2").await;
    let st = s.state(&table, Some(&ada)).await;
    let wonder = st["view"]["cities"][0]["wonder"].as_str().unwrap().to_string();
    let (_, cat) = s.get("/api/catalog/2e", None).await;
    let w = cat["wonders"].as_array().unwrap().iter().find(|w| w["name"] == wonder.as_str()).unwrap();
    let expected: Vec<usize> =
        w["sides"].as_array().unwrap().iter().map(|s| s["stages"].as_array().unwrap().len()).collect();
    let shown = js(c, "return [...document.querySelectorAll('#side-choice .side')].map(e => e.querySelectorAll('.stage-list li').length)").await;
    assert_eq!(shown, json!(expected));
    shot(c, "12-side-choice.png").await;
    js(c, "document.querySelector('#side-choice .side[data-side=Night] button').click()").await;
    wait_for(c, "the first turn", "document.querySelector('.phase') && document.querySelector('.phase').textContent.includes('Turn 1') && document.querySelector('.hand .card')").await;
    let log = js(c, "return document.querySelector('.log-turn b').textContent").await;
    assert_eq!(log, json!("Setup · sides chosen"));
    assert_eq!(s.state(&table, None).await["view"]["cities"][0]["side"], json!("Night"));
}

/// Defect 7: the Free City step says who chooses, and sets the own card aside.
async fn free_city_step(c: &Client, s: &TestServer) {
    let table = s.create(2, "1e", "random", &[None, Some("heuristic")]).await;
    let ada = s.take(&table, 0, "Ada").await;
    sit(c, s, &table, 0, &ada).await;
    wait_for(c, "the hand", "document.querySelectorAll('.hand .card').length === 8").await;
    let line = js(c, "return document.querySelector('.free-city-line').textContent").await;
    assert!(line.as_str().unwrap().contains("Free City: chosen this turn by Ada"), "{line}");
    let discard_buttons = js(c, "return document.querySelectorAll('button.act-discard').length").await;
    js(c, "document.querySelectorAll('button.act-discard')[0].click()").await;
    wait_for(
        c,
        "the Free City step",
        "document.querySelector('.for-free-city') && document.getElementById('pending')",
    )
    .await;
    assert_eq!(js(c, "return document.querySelectorAll('.hand .card').length").await, json!(7));
    // The Free City discards only when it can build nothing: the page says so (the buttons go).
    let note = js(c, "return document.querySelector('.for-free-city').textContent").await;
    assert!(note.as_str().unwrap().contains("discards only when it can build nothing"), "{note}");
    assert!(discard_buttons.as_u64().unwrap() >= 8, "Ada's own hand had its discard buttons");
    c.execute("window.scrollTo(0, document.querySelector('.status').offsetTop - 60)", vec![]).await.unwrap();
    shot(c, "13-free-city.png").await;
}

/// The team variant: the lobby's checkbox; a seat marked with its team, the teammate marked, and
/// the teammate's hand shown.
async fn team_game(c: &Client, s: &TestServer) {
    c.goto(&s.url("/")).await.unwrap();
    wait_for(c, "the lobby", "document.getElementById('teams')").await;
    let seats = json!([{}, {}, {"bot": "heuristic"}, {"bot": "heuristic"}]);
    let (status, info) =
        s.post("/api/tables", &json!({"players": 4, "teams": true, "seats": seats}), None).await;
    assert_eq!(status, 201, "{info}");
    let table = info["id"].as_str().unwrap().to_string();
    let ada = s.take(&table, 0, "Ada").await;
    let bob = s.take(&table, 1, "Bob").await;
    sit(c, s, &table, 0, &ada).await;
    wait_for(c, "the teammate's hand", "document.querySelectorAll('#teammate-hand li').length === 7").await;
    let bob_hand = s.state(&table, Some(&bob)).await["view"]["hand"].as_array().unwrap().len();
    assert_eq!(bob_hand, 7);
    let title = js(c, "return document.querySelector('#teammate-hand h2').textContent").await;
    assert!(title.as_str().unwrap().contains("Bob [Team 1 · your teammate]"), "{title}");
    c.execute("window.scrollTo(0, document.getElementById('teammate-hand').offsetTop - 300)", vec![])
        .await
        .unwrap();
    shot(c, "13b-team-game.png").await;
}

/// The score pad: a table loaded from JSON, a card added by searching, scored by the server.
async fn score_pad(c: &Client, s: &TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("table.json");
    std::fs::write(
        &file,
        json!({"edition": "1e", "players": [
            {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2,
             "cards": ["Lumber Yard", "Baths", "Apothecary", "Workshop"], "coins": 14, "military": [1, 3, -1]},
            {"name": "Bob", "wonder": "Rhodes", "side": "B", "stages": 1, "cards": ["Ore Vein"], "coins": 5, "military": [1]},
            {"name": "Cy", "wonder": "Babylon", "side": "A", "cards": ["Clay Pool"], "coins": 5, "military": [-1]}]})
        .to_string(),
    )
    .unwrap();
    c.goto(&s.url("/score")).await.unwrap();
    wait_for(c, "the score pad", "document.getElementById('pad-score')").await;
    c.find(Locator::Id("pad-file")).await.unwrap().send_keys(file.to_str().unwrap()).await.unwrap();
    wait_for(c, "the loaded table", "document.querySelectorAll('.pad-cards .mini').length === 6").await;
    // A second Baths: the 3-player deck holds one, and the pad says so.
    let search = c.find_all(Locator::Css(".pad-card")).await.unwrap();
    search[1].send_keys("Baths").await.unwrap();
    js(c, "document.querySelectorAll('.pad-add-card')[1].click()").await;
    wait_for(c, "the added card", "document.querySelectorAll('.pad-cards .mini').length === 7").await;
    click(c, &c.find(Locator::Id("pad-score")).await.unwrap()).await;
    wait_for(c, "the error", "document.getElementById('pad-error')").await;
    let error = js(c, "return document.getElementById('pad-error').textContent").await;
    assert!(error.as_str().unwrap().contains("Baths"), "{error}");
    // Bob builds an Altar instead (2 points), found by its name in the search box.
    js(c, "document.querySelectorAll('.pad-row')[1].querySelector('.pad-cards .mini:last-child .x').click()")
        .await;
    wait_for(c, "the card removed", "document.querySelectorAll('.pad-cards .mini').length === 6").await;
    let search = c.find_all(Locator::Css(".pad-card")).await.unwrap();
    search[1].send_keys("Altar").await.unwrap();
    js(c, "document.querySelectorAll('.pad-add-card')[1].click()").await;
    wait_for(c, "the added card", "document.querySelectorAll('.pad-cards .mini').length === 7").await;
    click(c, &c.find(Locator::Id("pad-score")).await.unwrap()).await;
    wait_for(c, "the sheet", "document.getElementById('pad-sheet')").await;
    let totals =
        js(c, "return [...document.querySelectorAll('#pad-sheet td.cat-total')].map(e => e.textContent)")
            .await;
    assert_eq!(totals, json!(["20", "7", "0"]));
    shot(c, "14-score-pad.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(c, "Chinese", "document.querySelector('#pad-sheet th.cat-military').textContent === '軍事'")
        .await;
    shot(c, "15-score-pad-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    // The JSON it downloads is the table `wonders score` reads.
    let table = js(c, "return padTable()").await;
    assert_eq!(table["players"][1]["cards"], json!(["Ore Vein", "Altar"]));
    let (status, body) = s.post("/api/score", &table, None).await;
    assert_eq!(status, 200);
    assert_eq!(body["players"][1]["total"], json!(7));
}

/// Sets a form control's value as a player would and fires its `change` event (the page reads
/// values on `change`; WebDriver's typing fires it only when the focus leaves).
async fn set_value(c: &Client, css: &str, index: usize, value: &str) {
    let done = c
        .execute(
            "const e = document.querySelectorAll(arguments[0])[arguments[1]]; if (!e) return false;
             e.value = arguments[2]; e.dispatchEvent(new Event('change')); return true",
            vec![json!(css), json!(index), json!(value)],
        )
        .await
        .unwrap();
    assert_eq!(done, json!(true), "no element {css} [{index}]");
}

/// Issue 10, What to build 7 and 9: the score pad's Free City row and its Edifice fields, entered,
/// scored, downloaded and loaded back; and an Edifice game's city summaries, Age-end panel and
/// log blocks (projects completed or failed, penalties, debt tokens).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_score_pad_and_edifice_in_headless_chromium() {
    let _one = BROWSER.lock().await;
    let Some(b) = browser().await else {
        return;
    };
    let c = b.client.clone();
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    score_pad_free_city(&c, &s).await;
    score_pad_edifice(&c, &s).await;
    let (table, ada) = edifice_game(&c, &s).await;
    edifice_game_over(&c, &s, &table, &ada).await;
    c.close().await.unwrap();
    s.stop().await;
}

/// The Free City row: ticked, the pad holds 2 players and the Free City (1st edition, no more
/// rows); the sheet shows the Free City without a place.
async fn score_pad_free_city(c: &Client, s: &TestServer) {
    c.goto(&s.url("/score")).await.unwrap();
    wait_for(c, "the score pad", "document.getElementById('pad-free-city')").await;
    click(c, &c.find(Locator::Id("pad-free-city")).await.unwrap()).await;
    wait_for(c, "the Free City row", "document.querySelector('.pad-row.free-city')").await;
    let form = js(
        c,
        "return [document.querySelectorAll('.pad-row').length, document.querySelectorAll('.pad-row')[2].classList.contains('free-city'),
                 document.getElementById('pad-add').disabled, document.getElementById('pad-edition').disabled,
                 document.querySelector('.pad-row.free-city .free-city-tag').textContent]",
    )
    .await;
    assert_eq!(form, json!([3, true, true, true, "Free City"]));
    // 002 2人變體規則 as in the core's table test: Ann (Giza A, stage 1, Lumber Yard, 6 coins,
    // +1), Bob (Rhodes A, Barracks, 9 coins, +1 −1), the Free City (Babylon A, Clay Pool, 3 coins,
    // −1).
    for (row, wonder) in [(0, "Giza"), (1, "Rhodes"), (2, "Babylon")] {
        set_value(c, ".pad-wonder", row, wonder).await;
        set_value(c, ".pad-side", row, "A").await;
    }
    set_value(c, ".pad-stages", 0, "1").await;
    for (row, name, coins, card) in
        [(0, "Ann", "6", "Lumber Yard"), (1, "Bob", "9", "Barracks"), (2, "", "3", "Clay Pool")]
    {
        if !name.is_empty() {
            set_value(c, ".pad-name", row, name).await;
        }
        set_value(c, ".pad-coins", row, coins).await;
        set_value(c, ".pad-card", row, card).await;
        wait_for(
            c,
            "the card",
            &format!("document.querySelectorAll('.pad-row')[{row}].querySelector('.pad-cards .mini')"),
        )
        .await;
    }
    set_value(c, ".pad-tok-1", 0, "1").await;
    set_value(c, ".pad-tok-1", 1, "1").await;
    set_value(c, ".pad-tok-m1", 1, "1").await;
    set_value(c, ".pad-tok-m1", 2, "1").await;
    let table = js(c, "return padTable()").await;
    assert_eq!(table["edition"], json!("1e"));
    assert_eq!(table["players"][2]["free_city"], json!(true));
    assert_eq!(table["players"][2]["name"], json!("Free City"));
    assert_eq!(table["players"][1]["military"], json!([1, -1]));
    assert!(table.get("expansions").is_none(), "{table}");
    click(c, &c.find(Locator::Id("pad-score")).await.unwrap()).await;
    wait_for(c, "the sheet", "document.getElementById('pad-sheet')").await;
    // Ann: 1 + 2 (6 coins) + 3 (stage 1) = 6; Bob: 1 − 1 + 3 (9 coins) = 3; the Free City:
    // −1 + 1 (3 coins) = 0, and no place.
    let sheet = js(
        c,
        "return [...document.querySelectorAll('#pad-sheet tbody tr')].map(r => [r.querySelector('th').textContent,
                 r.querySelector('.cat-total').textContent, r.querySelector('.rank').textContent, r.classList.contains('free-city')])",
    )
    .await;
    assert_eq!(
        sheet,
        json!([["Ann", "6", "1", false], ["Bob", "3", "2", false], ["Free City", "0", "–", true]])
    );
    shot(c, "16-score-pad-free-city.png").await;
    // In Chinese: the option, the row's tag and the sheet's Free City line.
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(c, "Chinese", "document.querySelector('#pad-sheet th.cat-military').textContent === '軍事'")
        .await;
    let zh = js(
        c,
        "return [document.getElementById('pad-free-city').parentElement.textContent.trim(), document.querySelector('.free-city-tag').textContent,
                 document.querySelector('#pad-sheet tr.free-city th').textContent]",
    )
    .await;
    assert_eq!(zh, json!(["2 人與自由城市（第一版）", "自由城市", "Free City 自由城市"]));
    shot(c, "16b-score-pad-free-city-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(c, "English", "document.querySelector('#pad-sheet th.cat-military').textContent === 'Military'")
        .await;
    // What it downloads is what `wonders score` reads (the core's table format) and loads back.
    let (status, body) = s.post("/api/score", &table, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["players"][2]["rank"], Value::Null);
    let again = js(c, "loadPad(JSON.parse(JSON.stringify(padTable()))); return padTable()").await;
    assert_eq!(again, table);
    wait_for(c, "the reloaded rows", "document.querySelectorAll('.pad-row.free-city').length === 1").await;
    // Unticked: three players again, the third an ordinary player.
    click(c, &c.find(Locator::Id("pad-free-city")).await.unwrap()).await;
    wait_for(c, "no Free City", "!document.querySelector('.pad-row.free-city')").await;
    assert_eq!(js(c, "return padTable().players.some(p => p.free_city)").await, json!(false));
}

/// The Edifice fields: projects of each Age (one completed), pawns and debt tokens by Age.
async fn score_pad_edifice(c: &Client, s: &TestServer) {
    c.goto(&s.url("/score")).await.unwrap();
    wait_for(c, "the score pad", "document.getElementById('pad-edifice')").await;
    click(c, &c.find(Locator::Id("pad-edifice")).await.unwrap()).await;
    wait_for(c, "the projects", "document.querySelectorAll('.pad-project').length === 3").await;
    // Each Age's list holds that Age's five projects (edifice.md §5.3).
    let lists =
        js(c, "return [...document.querySelectorAll('.pad-project-name')].map(s => s.options.length)").await;
    assert_eq!(lists, json!([5, 5, 5]));
    set_value(c, ".pad-project-name", 0, "Belvedere").await;
    wait_for(c, "Belvedere", "document.querySelector('.pad-project-name').value === 'Belvedere'").await;
    click(c, &c.find(Locator::Css(".pad-project-done")).await.unwrap()).await;
    for (row, wonder) in [(0, "Giza"), (1, "Rhodes"), (2, "Babylon")] {
        set_value(c, ".pad-wonder", row, wonder).await;
        set_value(c, ".pad-side", row, "A").await;
    }
    set_value(c, ".pad-stages", 0, "2").await;
    for (row, name) in [(0, "Ann"), (1, "Bob"), (2, "Cy")] {
        set_value(c, ".pad-name", row, name).await;
    }
    // Ann took part in Belvedere (completed); Bob took Age II's debt token.
    set_value(c, ".pad-pawns-1", 0, "1").await;
    set_value(c, ".pad-debt-2", 1, "1").await;
    let table = js(c, "return padTable()").await;
    assert_eq!(table["expansions"], json!(["edifice"]));
    assert_eq!(table["projects"][0], json!({"name": "Belvedere", "completed": true}));
    assert_eq!(table["projects"][1]["completed"], json!(false));
    assert_eq!((&table["players"][0]["pawns"], &table["players"][1]["debt"]), (&json!([1]), &json!([2])));
    click(c, &c.find(Locator::Id("pad-score")).await.unwrap()).await;
    wait_for(c, "the sheet", "document.querySelector('#pad-sheet th.cat-edifice')").await;
    // Ann: Giza A stages 1 and 2 (3 + 5) and Belvedere's 1 VP per own wonder stage (2);
    // Bob: Age II debt −3 (edifice.toml, confirmed); Cy: 0.
    let sheet = js(
        c,
        "return [...document.querySelectorAll('#pad-sheet tbody tr')].map(r => [r.querySelector('.cat-wonder').textContent,
                 r.querySelector('.cat-edifice').textContent, r.querySelector('.cat-total').textContent])",
    )
    .await;
    assert_eq!(sheet, json!([["8", "2", "10"], ["0", "-3", "-3"], ["0", "0", "0"]]));
    c.execute("window.scrollTo(0, document.getElementById('pad-projects').offsetTop - 50)", vec![])
        .await
        .unwrap();
    shot(c, "17-score-pad-edifice.png").await;
    let (status, body) = s.post("/api/score", &table, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["players"][0]["edifice"], json!(2));
    let again = js(c, "loadPad(JSON.parse(JSON.stringify(padTable()))); return padTable()").await;
    assert_eq!(again, table);
    js(c, "document.getElementById('pad-score').click()").await;
    wait_for(c, "the sheet again", "document.querySelector('#pad-sheet th.cat-edifice')").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(
        c,
        "Chinese",
        "document.getElementById('pad-edifice').parentElement.textContent.includes('穹樓')",
    )
    .await;
    let zh = js(c, "return [document.querySelector('.pad-project small').textContent, document.querySelector('.pad-edifice').textContent]").await;
    assert!(zh[0].as_str().unwrap().contains("奇蹟階段"), "Belvedere's reward in Chinese: {zh}");
    assert!(zh[1].as_str().unwrap().contains("負債標記"), "{zh}");
    c.execute("window.scrollTo(0, document.getElementById('pad-projects').offsetTop - 50)", vec![])
        .await
        .unwrap();
    shot(c, "18-score-pad-edifice-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
}

/// An Edifice game played to the start of Age II: every city's summary shows its pawns and debt,
/// the Age-end panel and its log block tell what became of the Age I project, as the server's
/// history says.
async fn edifice_game(c: &Client, s: &TestServer) -> (String, String) {
    let body = json!({"players": 3, "expansions": ["edifice"], "seats": [{}, {"bot": "heuristic"}, {"bot": "heuristic"}]});
    let (status, info) = s.post("/api/tables", &body, None).await;
    assert_eq!(status, 201, "{info}");
    let table = info["id"].as_str().unwrap().to_string();
    let ada = s.take(&table, 0, "Ada").await;
    sit(c, s, &table, 0, &ada).await;
    wait_for(
        c,
        "the game",
        "document.body.dataset.status === 'playing' && document.querySelector('button.act')",
    )
    .await;
    assert_eq!(js(c, "return document.querySelectorAll('.city .edifice-line').length").await, json!(3));
    // A failed project's "discard a card" penalty is chosen among the city's cards, drawn as
    // cards (the state is the page's own, with the phase and the two actions the server sends).
    let shown = js(
        c,
        "const st = current.state; const copy = JSON.parse(JSON.stringify(st));
         copy.view.phase = 'edifice_discard';
         copy.legal = [{type: 'discard_built', card: 'Lumber Yard'}, {type: 'discard_built', card: 'Stone Pit'}];
         current.state = copy; current.render();
         const p = document.getElementById('edifice-discard');
         const out = [[...p.querySelectorAll('.card')].map(e => e.dataset.card), p.querySelectorAll('button.act-discard_built').length,
                      p.querySelector('h3').textContent.startsWith('The great project failed'), document.querySelector('.phase').textContent.includes('discard a card'),
                      document.querySelectorAll('.wonder-ctl').length];
         return out",
    )
    .await;
    assert_eq!(shown, json!([["Lumber Yard", "Stone Pit"], 2, true, true, 0]));
    c.execute("document.getElementById('edifice-discard').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "26-edifice-discard-choice.png").await;
    c.execute("location.reload()", vec![]).await.unwrap();
    wait_for(
        c,
        "the game again",
        "document.body.dataset.status === 'playing' && document.querySelector('button.act')",
    )
    .await;
    // Play Age I: the wonder stage with the project when offered, else the first action.
    let started = Instant::now();
    let mut took_part = false;
    loop {
        let st = s.state(&table, Some(&ada)).await;
        if st["view"]["age"] == json!(2) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "Age I did not end in time");
        let turn = body_data(c, "turnId").await;
        let step = body_data(c, "step").await;
        let part = if took_part {
            None
        } else {
            st["legal"].as_array().unwrap().iter().position(|a| a["take_part"] == json!(true))
        };
        let clicked = match part {
            Some(_) => {
                // The stage with the project is a way to pay in the one wonder control.
                let label = js(
                    c,
                    "const b = [...document.querySelectorAll('#wonder-ctl button')]; return b.map(x => x.textContent).join(' | ')",
                )
                .await;
                let opened = js(c, "const ch = document.querySelector('#wonder-ctl button.choose'); if (ch) ch.click(); return !!ch").await;
                if opened == json!(true) {
                    wait_for(
                        c,
                        "the wonder chooser",
                        "document.querySelector('#wonder-ctl .options button')",
                    )
                    .await;
                }
                let ok = js(
                    c,
                    "const b = [...document.querySelectorAll('#wonder-ctl button.act-wonder')].find(x => x.textContent.includes('take part'));
                     if (b) b.click(); return !!b",
                )
                .await;
                assert_eq!(ok, json!(true), "take part offered in the wonder control: {label}");
                took_part = true;
                true
            }
            None => match first_enabled(c, "button.act").await {
                Some(b) => {
                    click(c, &b).await;
                    true
                }
                None => false,
            },
        };
        if clicked {
            wait_for(
                c,
                "the action to be applied",
                &format!(
                    "document.body.dataset.turnId !== '{turn}' || document.body.dataset.step !== '{step}'"
                ),
            )
            .await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    wait_for(c, "the Age-end panel", "document.querySelector('#age-end .edifice-age-end')").await;
    let st = s.state(&table, Some(&ada)).await;
    let project = &st["view"]["projects"][0];
    let outcome = project["outcome"].as_str().unwrap();
    let events: Vec<&Value> = st["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["age"] == json!(1) && e["played"].as_str().unwrap().starts_with("edifice_"))
        .filter(|e| !["edifice_took_part", "edifice_ur_pawn"].contains(&e["played"].as_str().unwrap()))
        .collect();
    let shown = js(
        c,
        "const p = document.querySelector('#age-end .edifice-age-end');
         return [p.querySelector('.tag').textContent, [...p.querySelectorAll('li')].map(l => l.className).filter(x => x),
                 document.querySelector('.log-age-end .edifice-age-end').textContent === p.textContent]",
    )
    .await;
    let expected: Vec<String> =
        events.iter().map(|e| format!("ed-{}", &e["played"].as_str().unwrap()["edifice_".len()..])).collect();
    assert_eq!(shown[0], json!(outcome), "{project}");
    assert_eq!(shown[1], json!(expected), "one line per city's outcome: {events:?}");
    assert_eq!(shown[2], json!(true), "the log block says the same");
    match outcome {
        // Completed: every holder of an Age I pawn was rewarded.
        "completed" => assert_eq!(expected.len(), project["holders"].as_array().unwrap().len()),
        // Failed: every city has its line (spared, paid, discarded or in debt).
        _ => assert_eq!(expected.len(), 3),
    }
    // Each city's summary: its pawns and its debt tokens as the view holds them.
    let cities = st["view"]["cities"].as_array().unwrap();
    let lines = js(
        c,
        "return [...document.querySelectorAll('.cities .city')].sort((a, b) => a.dataset.city - b.dataset.city)
           .map(e => [e.querySelectorAll('.edifice-line .pawn').length, e.querySelectorAll('.edifice-line .tok-debt').length])",
    )
    .await;
    let expected: Vec<Value> = cities
        .iter()
        .map(|c| {
            let n = |k: &str| c.get(k).and_then(|v| v.as_array()).map_or(0, |a| a.len());
            json!([n("pawns"), n("debt")])
        })
        .collect();
    assert_eq!(lines, json!(expected));
    if took_part {
        assert!(
            cities[0]["pawns"].as_array().is_some_and(|p| p.contains(&json!(1))),
            "Ada took part in Age I"
        );
    }
    c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "19-edifice-age-end.png").await;
    c.execute("document.querySelector('.city.mine').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "20-edifice-city-summary.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(
        c,
        "Chinese",
        "document.querySelector('#age-end .edifice-age-end b').textContent.includes('宏偉項目')",
    )
    .await;
    c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "21-edifice-age-end-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    // On a phone: the projects, the Age-end panel and the summaries fit the width.
    c.set_window_size(390, 844).await.unwrap();
    c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
    let overflow = js(c, "return document.documentElement.scrollWidth - window.innerWidth").await;
    assert!(overflow.as_i64().unwrap() <= 0, "the phone layout scrolls sideways by {overflow}px");
    shot(c, "24-edifice-phone-age-end.png").await;
    c.execute("document.querySelector('.city.mine .edifice-line').scrollIntoView({block: 'center'})", vec![])
        .await
        .unwrap();
    shot(c, "25-edifice-phone-city.png").await;
    c.set_window_size(1280, 1100).await.unwrap();
    (table, ada)
}

/// The same Edifice game played to its end: the score sheet and the chart have the edifice
/// category (debt drawn left of 0), and the log has each Age's project block.
async fn edifice_game_over(c: &Client, s: &TestServer, table: &str, ada: &str) {
    play_http(s, table, &[ada.to_string()], 1).await;
    wait_for(c, "the score sheet", "document.querySelector('.score-sheet th.cat-edifice')").await;
    let st = s.state(table, None).await;
    let scores = st["scores"].as_array().unwrap();
    let edifice: Vec<String> =
        scores.iter().map(|l| l["edifice"].as_i64().unwrap_or(0).to_string()).collect();
    let shown = js(
        c,
        "return [...document.querySelectorAll('.score-sheet td.cat-edifice')].map(td => td.textContent)",
    )
    .await;
    assert_eq!(shown, json!(edifice));
    // The chart: 3 rows and 8 categories in the key; one bar left of 0 per negative Edifice score.
    assert_eq!(js(c, "return document.querySelectorAll('#score-chart g').length").await, json!(3 + 8));
    let negative = scores.iter().filter(|l| l["edifice"].as_i64().unwrap_or(0) < 0).count();
    assert_eq!(
        js(c, "return document.querySelectorAll('#score-chart rect.neg-edifice').length").await,
        json!(negative)
    );
    // Each Age's end has its project block in the log, and the last one is in the panel.
    assert_eq!(
        js(c, "return document.querySelectorAll('.log-age-end .edifice-age-end').length").await,
        json!(3)
    );
    let outcome = st["view"]["projects"][2]["outcome"].as_str().unwrap().to_string();
    assert_eq!(
        js(c, "return document.querySelector('#age-end .edifice-age-end .tag').textContent").await,
        json!(outcome)
    );
    // The header names the expansion as its own tag (the server stores it as `random+edifice`).
    let head =
        js(c, "return [...document.querySelectorAll('.table-head .tag')].map(e => e.textContent)").await;
    assert_eq!(head, json!(["1st edition", "random boards and sides", "Edifice", "over"]));
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(c, "22-edifice-game-over.png").await;
    c.execute("document.querySelector('.log').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "23-edifice-log.png").await;
}

/// Armada (issue 9 items 2 and 15): a 4-player Armada game created from the lobby and clicked
/// through to its end against bots.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_armada_game_in_headless_chromium() {
    let _one = BROWSER.lock().await;
    let Some(b) = browser().await else {
        return;
    };
    let c = b.client.clone();
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "the lobby", "document.getElementById('create')").await;
    c.find(Locator::Id("players")).await.unwrap().select_by_value("4").await.unwrap();
    c.find(Locator::Id("armada")).await.unwrap().click().await.unwrap();
    let name = c.find(Locator::Id("name")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("Ada").await.unwrap();
    c.find(Locator::Id("create")).await.unwrap().click().await.unwrap();
    wait_for(
        &c,
        "the game to start",
        "document.body.dataset.status === 'playing' && document.querySelector('button.act')",
    )
    .await;
    let url = c.current_url().await.unwrap();
    let table = url.path().trim_start_matches("/t/").to_string();
    let ada =
        js(&c, &format!("return JSON.parse(localStorage.getItem('wonders.tokens'))['{table}'].token")).await;
    let ada = ada.as_str().unwrap().to_string();
    let head =
        js(&c, "return [...document.querySelectorAll('.table-head .tag')].map(e => e.textContent)").await;
    assert!(head.as_array().unwrap().contains(&json!("Armada")), "{head}");
    armada_shipyards_match(&c, &s, &table, &ada).await;
    c.execute("document.querySelector('.city.mine .shipyard').scrollIntoView({block: 'center'})", vec![])
        .await
        .unwrap();
    shot(&c, "30-armada-city.png").await;
    c.execute("document.getElementById('fleets').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "31-armada-fleets.png").await;
    // The payment chooser of a card with its naval construction: the ship, the step it reaches
    // and that step's cost, included in the sum.
    let opened = js(
        &c,
        "const b = [...document.querySelectorAll('.hand .card-actions button')].find(x => x.textContent.includes('⚓'));
         if (!b) return null; if (b.classList.contains('choose')) b.click(); return b.textContent",
    )
    .await;
    if opened.is_string() {
        tokio::time::sleep(Duration::from_millis(200)).await;
        c.execute(
            "[...document.querySelectorAll('.hand .card')].find(x => x.textContent.includes('⚓')).scrollIntoView({block: 'center'})",
            vec![],
        )
        .await
        .unwrap();
        shot(&c, "32-armada-payment-naval.png").await;
    }
    armada_drawn_choices(&c).await;
    // Play the whole game: a naval construction when one is a single button, else the first
    // action; explorations and Forgotten Port's choice are buttons too.
    let started = Instant::now();
    let mut ages_checked = 0;
    loop {
        if body_data(&c, "status").await == "over" {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(240), "the Armada game did not end in time");
        let ended = js(&c, "return (current.state.age_ends || []).length").await.as_u64().unwrap();
        if ended > ages_checked {
            armada_age_end_matches(&c, &s, &table, &ada, ended).await;
            if ended == 1 {
                c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
                shot(&c, "34-armada-age-end.png").await;
            }
            ages_checked = ended;
        }
        let turn = body_data(&c, "turnId").await;
        let clicked = js(
            &c,
            "const all = [...document.querySelectorAll('.hand button.act')].filter(b => !b.disabled);
             const b = all.find(x => x.textContent.includes('⚓')) || all[0];
             if (!b) return false; b.click(); return true",
        )
        .await;
        if clicked == json!(true) {
            wait_for(
                &c,
                "the action to be applied",
                &format!(
                    "document.body.dataset.turnId !== '{turn}' || document.body.dataset.status === 'over'"
                ),
            )
            .await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    wait_for(&c, "the score sheet", "document.querySelector('.score-sheet th.cat-naval')").await;
    armada_age_end_matches(&c, &s, &table, &ada, 3).await;
    armada_shipyards_match(&c, &s, &table, &ada).await;
    let st = s.state(&table, Some(&ada)).await;
    for cat in ["naval", "fleet", "islands"] {
        let expected: Vec<String> = st["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l[cat].as_i64().unwrap_or(0).to_string())
            .collect();
        let shown = js(
            &c,
            &format!(
                "return [...document.querySelectorAll('.score-sheet td.cat-{cat}')].map(td => td.textContent)"
            ),
        )
        .await;
        assert_eq!(shown, json!(expected), "{cat}");
    }
    // The log has a line for every entry of the public log, Armada events in words.
    let lines = js(
        &c,
        "const l = [...document.querySelectorAll('.log-turn:not(.log-age-end) > ul > li')];
         return [l.length, l.filter(x => x.textContent.includes('armada_')).length,
                 l.filter(x => x.textContent.includes('naval conflict: ⚓')).length]",
    )
    .await;
    let history = st["history"].as_array().unwrap();
    let naval = history.iter().filter(|e| e["played"] == "armada_naval").count();
    assert_eq!(lines, json!([history.len(), 0, naval]));
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(&c, "35-armada-game-over.png").await;
    c.execute("document.querySelector('.log').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "36-armada-log.png").await;
    // On a phone: nothing scrolls sideways.
    c.set_window_size(390, 844).await.unwrap();
    c.execute("document.querySelector('.city .shipyard').scrollIntoView({block: 'center'})", vec![])
        .await
        .unwrap();
    let overflow = js(&c, "return document.documentElement.scrollWidth - window.innerWidth").await;
    assert!(overflow.as_i64().unwrap() <= 0, "the phone layout scrolls sideways by {overflow}px");
    shot(&c, "37-armada-phone-shipyard.png").await;
    c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "38-armada-phone-age-end.png").await;
    c.set_window_size(1280, 1100).await.unwrap();
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(&c, "Chinese", "document.querySelector('.shipyard-head b').textContent.includes('船塢')").await;
    c.execute("document.getElementById('age-end').scrollIntoView()", vec![]).await.unwrap();
    shot(&c, "39-armada-zh.png").await;
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    c.close().await.unwrap();
    s.stop().await;
}

/// Every shipyard on the page shows the view's steps, and the board numbers.
async fn armada_shipyards_match(c: &Client, s: &TestServer, table: &str, token: &str) {
    wait_for(
        c,
        "the state",
        &format!("current.state.step === {}", s.state(table, Some(token)).await["step"]),
    )
    .await;
    let st = s.state(table, Some(token)).await;
    let expected: Vec<Value> = st["view"]["armada"]["cities"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let steps: Vec<String> = y["ships"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["step"].as_u64().unwrap().to_string())
                .collect();
            json!([i.to_string(), format!("Shipyard {}", y["board"]), steps, y["naval_strength"].to_string()])
        })
        .collect();
    let shown = js(
        c,
        "return [...document.querySelectorAll('.city .shipyard')].sort((a, b) => a.dataset.city - b.dataset.city)
           .map(e => [e.dataset.city, e.querySelector('.shipyard-head b').textContent,
                      [...e.querySelectorAll('.ship-row')].map(r => r.dataset.step),
                      e.querySelector('.naval-strength').textContent.replace('⚓ ', '')])",
    )
    .await;
    assert_eq!(shown, json!(expected));
}

/// The Age-end panel (the last Age's) and each log block show the server's naval results.
async fn armada_age_end_matches(c: &Client, s: &TestServer, table: &str, token: &str, ended: u64) {
    let st = s.state(table, Some(token)).await;
    let end = &st["age_ends"][(ended - 1) as usize];
    let expected: Vec<Value> = end["cities"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, x)| {
            json!([i.to_string(), x["naval"]["strength"].to_string(), x["naval"]["token"].to_string()])
        })
        .collect();
    let blocks = js(
        c,
        &format!(
            "return [...document.querySelectorAll('.armada-age-end[data-age=\"{}\"]')].map(b =>
               [...b.querySelectorAll('.naval-results li')].map(l => [l.dataset.city, l.dataset.strength, l.dataset.token]))",
            end["age"]
        ),
    )
    .await;
    let blocks = blocks.as_array().unwrap();
    assert!(!blocks.is_empty(), "Age {} has its naval block", end["age"]);
    for b in blocks {
        assert_eq!(*b, json!(expected), "Age {}", end["age"]);
    }
    // The same as the server's public log: one `armada_naval` entry per city taking part, one
    // `armada_stayed_out` per city that stayed out (Forgotten Port).
    let history: Vec<&Value> =
        st["history"].as_array().unwrap().iter().filter(|e| e["age"] == end["age"]).collect();
    let naval: Vec<Value> = history
        .iter()
        .filter(|e| e["played"] == "armada_naval")
        .map(|e| {
            json!([
                e["seat"].to_string(),
                e["armada"]["strength"].to_string(),
                e["armada"]["token"].to_string()
            ])
        })
        .collect();
    let out = history.iter().filter(|e| e["played"] == "armada_stayed_out").count();
    assert_eq!(naval.len() + out, expected.len(), "Age {}: {naval:?}", end["age"]);
    for n in &naval {
        assert!(expected.contains(n), "Age {}: {n} is shown", end["age"]);
    }
}

/// The exploration (the dealt islands as cards, one button per choice of free moves) and
/// Forgotten Port's yes/no, drawn from the page's own state with the phase and the actions the
/// server would send; then the page is put back.
async fn armada_drawn_choices(c: &Client) {
    let shown = js(
        c,
        "const st = current.state; const copy = JSON.parse(JSON.stringify(st));
         copy.view.phase = 'explore'; copy.view.phase_city = copy.you;
         copy.view.armada.dealt = [
           {name: 'Topaz Isle', zh: '黃玉島', level: 1, effect: 'free 1-step move of the yellow ship', free_moves: 1, provisional: true},
           {name: 'Misty Isle', zh: '迷霧島', level: 1, effect: 'you no longer lose coins to taxes or pirates'}];
         copy.legal = [{type: 'choose_island', island: 'Topaz Isle', moves: ['yellow']}, {type: 'choose_island', island: 'Misty Isle'}];
         current.state = copy; current.render();
         const p = document.getElementById('explore');
         return [[...p.querySelectorAll('.island-card')].map(e => e.dataset.island), p.querySelectorAll('button.act-choose_island').length,
                 document.querySelector('.phase').textContent.includes('choose an island')]",
    )
    .await;
    assert_eq!(shown, json!([["Topaz Isle", "Misty Isle"], 2, true]));
    c.execute("document.getElementById('explore').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "33-armada-exploration.png").await;
    // The same exploration watched by a player who is not exploring: who chooses among how many
    // islands, who follows, the island kept so far, the explorations still due, and who stays
    // out of the naval conflict (the wire's `exploring`, `explore_due` and `stay_out`).
    let shown = js(
        c,
        "const copy = JSON.parse(JSON.stringify(current.state));
         const n = copy.view.cities.length, other = (copy.you + 1) % n, third = (copy.you + 2) % n;
         copy.view.phase = 'explore'; copy.view.phase_city = other; copy.legal = [];
         copy.view.armada.dealt = [];
         copy.view.armada.exploring = {level: 2, waiting: [{city: other, cards: 3}, {city: third, cards: 2}],
           kept: [{name: 'Topaz Isle', zh: '黃玉島', level: 2, effect: 'free 1-step move of the yellow ship'}]};
         copy.view.armada.explore_due = [{city: copy.you, level: 1}];
         copy.view.armada.stay_out = [third];
         current.state = copy; current.render();
         const p = document.getElementById('exploring');
         return [!!document.getElementById('explore'), p.textContent.includes('Exploration, level 2: ' + current.cityLabel(other) + ' chooses among 3 islands'),
                 p.textContent.includes('then ' + current.cityLabel(third) + ' (2)'), p.textContent.includes('Kept: Topaz Isle'),
                 p.textContent.includes('Still to explore this turn: ' + current.cityLabel(copy.you) + ' (level 1)'),
                 document.querySelector('.stay-out').textContent.includes(current.cityLabel(third))]",
    )
    .await;
    assert_eq!(shown, json!([false, true, true, true, true, true]));
    c.execute("document.getElementById('exploring').scrollIntoView({block: 'center'})", vec![])
        .await
        .unwrap();
    shot(c, "33c-armada-exploration-watched.png").await;
    let shown = js(
        c,
        "const copy = JSON.parse(JSON.stringify(current.state));
         copy.view.phase = 'naval_opt_out';
         copy.legal = [{type: 'stay_out_of_naval', stay_out: true}, {type: 'stay_out_of_naval', stay_out: false}];
         current.state = copy; current.render();
         return [!!document.getElementById('naval-take-part'), !!document.getElementById('naval-stay-out')]",
    )
    .await;
    assert_eq!(shown, json!([true, true]));
    c.execute("document.getElementById('naval-opt-out').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "33b-armada-forgotten-port.png").await;
    c.execute("location.reload()", vec![]).await.unwrap();
    wait_for(
        c,
        "the game again",
        "document.body.dataset.status === 'playing' && document.querySelector('button.act')",
    )
    .await;
}
