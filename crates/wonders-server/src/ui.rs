//! The browser UI: one page, a script and a style sheet, embedded in the binary.
//!
//! In debug builds, `WONDERS_UI_DIR` (a folder holding `index.html`, `app.js` and `style.css`)
//! makes the server read the three files from disk at each request instead, for working on the
//! page without rebuilding; release builds always serve the embedded files.

use axum::http::header;
use axum::response::IntoResponse;
use std::borrow::Cow;

/// The page (the lobby and the tables; the script routes on the path).
pub const INDEX_HTML: &str = include_str!("../static/index.html");
/// The script.
pub const APP_JS: &str = include_str!("../static/app.js");
/// The style sheet.
pub const STYLE_CSS: &str = include_str!("../static/style.css");

/// The embedded file, or in a debug build with `WONDERS_UI_DIR` set, the file of that folder.
fn file(name: &str, embedded: &'static str) -> Cow<'static, str> {
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os("WONDERS_UI_DIR")
        && let Ok(text) = std::fs::read_to_string(std::path::Path::new(&dir).join(name))
    {
        return Cow::Owned(text);
    }
    let _ = name;
    Cow::Borrowed(embedded)
}

/// `GET /` and `GET /t/{id}`.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
        file("index.html", INDEX_HTML),
    )
}

/// `GET /static/app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
        file("app.js", APP_JS),
    )
}

/// `GET /static/style.css`.
pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
        file("style.css", STYLE_CSS),
    )
}
