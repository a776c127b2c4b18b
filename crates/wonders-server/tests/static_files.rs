//! The page's script and style sheet: gzipped for a browser that accepts it, whole otherwise;
//! the same bytes either way.

mod common;

use common::{TestServer, temp_db};
use std::io::Read;

#[tokio::test]
async fn the_script_and_the_style_sheet_are_gzipped_for_a_browser_that_accepts_it() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    for (path, whole) in
        [("/static/app.js", wonders_server::ui::APP_JS), ("/static/style.css", wonders_server::ui::STYLE_CSS)]
    {
        let gz = s.http.get(s.url(path)).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(gz.status(), 200);
        assert_eq!(gz.headers()["content-encoding"], "gzip", "{path}");
        let bytes = gz.bytes().await.unwrap();
        assert!(bytes.len() * 3 < whole.len(), "{path}: {} gzipped bytes for {}", bytes.len(), whole.len());
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).unwrap();
        assert_eq!(text, whole, "{path}: the same text once unzipped");
        // A client that does not ask for gzip gets the file as it is.
        let plain = s.http.get(s.url(path)).send().await.unwrap();
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        assert_eq!(plain.text().await.unwrap(), whole);
    }
    // The API's answers are not compressed.
    let api = s.http.get(s.url("/api/tables")).header("accept-encoding", "gzip").send().await.unwrap();
    assert!(api.headers().get("content-encoding").is_none());
    s.stop().await;
}
