//! The browser UI: one page, a script and a style sheet, embedded in the binary.

use axum::http::header;
use axum::response::IntoResponse;

/// The page (the lobby and the tables; the script routes on the path).
pub const INDEX_HTML: &str = include_str!("../static/index.html");
/// The script.
pub const APP_JS: &str = include_str!("../static/app.js");
/// The style sheet.
pub const STYLE_CSS: &str = include_str!("../static/style.css");

/// `GET /` and `GET /t/{id}`.
pub async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], INDEX_HTML)
}

/// `GET /static/app.js`.
pub async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], APP_JS)
}

/// `GET /static/style.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], STYLE_CSS)
}
