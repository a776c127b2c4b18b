//! End to end in a real headless Chromium driven over WebDriver: create a table with two bots
//! from the lobby, play a whole game by clicking, check the score sheet, then look at the page
//! on a phone-sized screen, in Chinese, and as a spectator. Screenshots go to
//! `target/screenshots/` at the workspace root.
//!
//! Skipped (with a message) when `chromium` or `chromedriver` is not installed; CI installs them
//! (Debian's `chromium` and `chromium-driver`).

mod common;

use common::{TestServer, temp_db};
use fantoccini::{Client, ClientBuilder, Locator};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_headless_chromium() {
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
        return;
    };
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let port = free_port();
    let _driver = Driver(
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
    let c = loop {
        match builder.connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(c) => break c,
            Err(e) => {
                assert!(start.elapsed() < Duration::from_secs(30), "chromedriver did not answer: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };

    // The lobby: 3 players, seats 2 and 3 bots (the default for seats after the first).
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "the lobby", "document.getElementById('create')").await;
    c.find(Locator::Id("players")).await.unwrap().select_by_value("3").await.unwrap();
    let name = c.find(Locator::Id("name")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("Ada").await.unwrap();
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
    shot(&c, "02-game-start.png").await;

    // Play by clicking: a direct action button, or every third time a payment chooser.
    let mut clicks = 0;
    let mut chooser_shot = false;
    let mut age2_shot = false;
    let started = Instant::now();
    while body_data(&c, "status").await != "over" {
        assert!(started.elapsed() < Duration::from_secs(240), "the game did not end in time");
        let turn = body_data(&c, "turnId").await;
        let chooser = if clicks % 3 == 0 { first_enabled(&c, "button.choose").await } else { None };
        let button = match chooser {
            Some(ch) => {
                ch.click().await.unwrap();
                wait_for(&c, "the payment chooser", "document.querySelector('.chooser.open button.act')")
                    .await;
                if !chooser_shot {
                    chooser_shot = true;
                    shot(&c, "03-payment-chooser.png").await;
                }
                first_enabled(&c, ".chooser.open button.act").await
            }
            None => first_enabled(&c, "button.act").await,
        };
        let Some(button) = button else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        button.click().await.unwrap();
        clicks += 1;
        wait_for(
            &c,
            "the action to be applied",
            &format!("document.body.dataset.turnId !== '{turn}' || document.body.dataset.status === 'over'"),
        )
        .await;
        if !age2_shot
            && c.execute("return document.querySelector('.phase').textContent", vec![])
                .await
                .unwrap()
                .as_str()
                .is_some_and(|t| t.contains("Age II ·"))
        {
            age2_shot = true;
            shot(&c, "04-age-two.png").await;
            c.set_window_size(390, 844).await.unwrap();
            shot(&c, "04b-phone-hand.png").await;
            c.set_window_size(1280, 1100).await.unwrap();
        }
    }
    assert!(clicks >= 18, "{clicks} clicks");
    wait_for(&c, "the score sheet", "document.querySelector('.score-sheet')").await;
    shot(&c, "05-final-scores.png").await;

    // The score sheet shows the server's totals.
    let state = s.state(&table, None).await;
    let totals: Vec<String> =
        state["scores"].as_array().unwrap().iter().map(|l| l["total"].to_string()).collect();
    let shown = c
        .execute(
            "return [...document.querySelectorAll('.score-sheet td.cat-total')].map(td => td.textContent)",
            vec![],
        )
        .await
        .unwrap();
    let shown: Vec<String> =
        shown.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(shown, totals);
    let ranks = c
        .execute(
            "return [...document.querySelectorAll('.score-sheet td.rank')].map(td => td.textContent)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(ranks.as_array().unwrap().len(), 3);

    // In Chinese, on a phone-sized screen.
    c.find(Locator::Id("lang")).await.unwrap().click().await.unwrap();
    wait_for(
        &c,
        "Chinese labels",
        "document.querySelector('.score-sheet th:nth-child(2)').textContent === '軍事'",
    )
    .await;
    c.set_window_size(390, 844).await.unwrap();
    c.execute("window.scrollTo(0, document.querySelector('.cities').offsetTop - 50)", vec![]).await.unwrap();
    shot(&c, "06-phone-zh.png").await;
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
    assert_eq!(cities.as_i64(), Some(3));
    shot(&c, "07-spectator.png").await;
    c.close().await.unwrap();
    s.stop().await;
}
