//! The HTTP routes: the browser UI, the JSON API and the WebSocket.
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /t/{id}` | the browser UI |
//! | `GET /api/catalog/{edition}` | every card and wonder of an edition, with Chinese names |
//! | `GET /api/bots` | the names of the bots a seat can be given |
//! | `GET /api/tables` | open and finished tables, a page at a time (`?offset=0&limit=50`, at most 200; [`TablePage`]) |
//! | `POST /api/tables` | create a table ([`CreateTable`]) |
//! | `GET /api/tables/{id}` | a table's public info |
//! | `GET /api/tables/{id}/state` | the state for the seat of the `Authorization: Bearer` token, or a spectator's |
//! | `POST /api/tables/{id}/seats/{seat}` | take a seat (`{"name": …}`); returns the seat's token once. A rematch's seat held for a previous player needs their token of that game (`Authorization: Bearer`) while held |
//! | `DELETE /api/tables/{id}/seats/{seat}` | leave a seat of a table still waiting for players (`Authorization: Bearer` token of the seat); the token is no longer valid |
//! | `POST /api/tables/{id}/actions` | act for the token's seat ([`crate::msg::ActRequest`]) |
//! | `POST /api/tables/{id}/retract` | take back the token's seat's last choice before the step resolves |
//! | `POST /api/score` | the score sheet of a table JSON (the format `wonders score` reads; [`crate::scorepad`]) |
//! | `GET /score` | the score pad page |
//! | `POST /api/tables/{id}/rematch` | the rematch of a finished game (created once), for one of its players (`Authorization: Bearer`) |
//! | `GET /api/tables/{id}/record` | a finished game's record, with scores |
//! | `GET /api/tables/{id}/review?seat=N` | a finished game reviewed for a seat by the search bot, for a player of the game (`Authorization: Bearer`; [`crate::review`]); `seat` defaults to the token's |
//! | `GET /api/tables/{id}/ws` | the WebSocket ([`crate::ws`]) |
//! | `GET /healthz` | `{"status": "ok"}` while serving |
//! | `GET /metrics` | Prometheus metrics ([`crate::metrics`]) |
//!
//! Every request first goes through the middleware of [`crate::net::layered`]: state-changing
//! requests must be `application/json` from the server's own origin, bodies are limited in size,
//! creating tables, taking seats and rematches are rate-limited per IP address
//! ([`crate::limits`]). Request bodies are JSON objects; unknown fields are refused.
//!
//! Errors are `{"error": {"code": …, "message": …}}` with a 4xx/5xx status; see [`ApiError`].

use crate::limits::Limits;
use crate::msg::{ActRequest, ApiError, CreateTable, TablePage, TakeSeat};
use crate::net::{self, Net};
use crate::server::Server;
use crate::{catalog, ui, ws};
use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, RawQuery, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::time::Instant;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.body())).into_response()
    }
}

/// The routes of the server, with the default [`Limits`].
pub fn router(server: Server) -> Router {
    router_with(Net::new(server, Limits::default()))
}

/// The routes of the server, under the limits of `net`.
pub fn router_with(net: Arc<Net>) -> Router {
    let server = net.server.clone();
    // The script and the style sheet gzipped for a browser that accepts it (a phone loads about a
    // third of the bytes); the API's answers are left as they are.
    let statics = Router::new()
        .route("/static/app.js", get(ui::script))
        .route("/static/style.css", get(ui::style))
        .layer(tower_http::compression::CompressionLayer::new());
    let routes = Router::new()
        .route("/", get(ui::index))
        .route("/t/{id}", get(ui::index))
        .merge(statics)
        .route("/api/catalog/{edition}", get(catalog_json))
        .route("/api/bots", get(bots))
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(info))
        .route("/api/tables/{id}/state", get(state))
        .route("/api/tables/{id}/seats/{seat}", post(take_seat).delete(leave_seat))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/retract", post(retract))
        .route("/api/tables/{id}/hint", get(hint))
        .route("/api/tables/{id}/review", get(review))
        .route("/api/score", post(score))
        .route("/score", get(ui::index))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/ws", get(websocket))
        .route("/healthz", get(net::healthz))
        .route("/metrics", get(net::metrics))
        .fallback(not_found)
        .layer(Extension(net.clone()));
    net::layered(routes, net).with_state(server)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such page".into())
}

fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => ApiError::Storage(format!("encoding the answer: {e}")).into_response(),
    }
}

/// Parses a request body: a JSON object (not an array or a bare value) of the expected fields.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(ApiError::BadRequest(
            "malformed request body: it must be a JSON object (`{…}`), not an array or a bare value".into(),
        ));
    }
    serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("malformed request body: {e}")))
}

/// The token of an `Authorization: Bearer …` header; a header of another form is an error.
fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().map_err(|_| ApiError::BadRequest("unreadable Authorization header".into()))?;
    match value.strip_prefix("Bearer ") {
        Some(t) => Ok(Some(t.trim().to_string())),
        None => Err(ApiError::BadRequest("the Authorization header must be `Bearer <token>`".into())),
    }
}

/// Runs a blocking change (it writes to the store) off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::Storage(format!("the task failed: {e}")))?
}

async fn catalog_json(Path(edition): Path<String>) -> Response {
    match catalog::json(&edition) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn bots() -> Response {
    json(StatusCode::OK, &crate::bot_names())
}

/// Tables per list on a page of `GET /api/tables`: by default, and at most.
const PAGE_DEFAULT: usize = 50;
const PAGE_MAX: usize = 200;

async fn list(State(server): State<Server>, RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    let (mut offset, mut limit) = (0, PAGE_DEFAULT);
    for pair in query.as_deref().unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| ApiError::BadRequest(format!("`{key}` must be a number, not `{value}`")))
        };
        match key {
            "offset" => offset = number()?,
            "limit" => limit = number()?,
            _ => return Err(ApiError::BadRequest(format!("unknown parameter `{key}` (offset, limit)"))),
        }
    }
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::BadRequest(format!("`limit` is 1 to {PAGE_MAX}, not {limit}")));
    }
    let all = server.list();
    let page = |v: Vec<crate::msg::TableInfo>| v.into_iter().skip(offset).take(limit).collect();
    let (open_total, finished_total) = (all.open.len(), all.finished.len());
    let page = TablePage {
        open: page(all.open),
        finished: page(all.finished),
        open_total,
        finished_total,
        offset,
        limit,
    };
    Ok(json(StatusCode::OK, &page))
}

async fn create(
    State(server): State<Server>,
    Extension(net): Extension<Arc<Net>>,
    client: Option<Extension<net::ClientIp>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: CreateTable = parse(&body)?;
    let address = crate::limits::address_key(
        client.map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |Extension(c)| c.0),
    );
    let caps = crate::server::OpenCaps {
        total: net.limits.max_open_tables,
        per_address: net.limits.max_open_tables_per_ip,
    };
    let info = blocking(move || server.create_table_from(&req, address, caps)).await?;
    Ok(json(StatusCode::CREATED, &info))
}

async fn info(State(server): State<Server>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let info = server.table(&id)?.lock().info();
    Ok(json(StatusCode::OK, &info))
}

async fn state(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let state = server.state(&id, token.as_deref())?;
    Ok(json(StatusCode::OK, &state))
}

async fn take_seat(
    State(server): State<Server>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let seat: usize =
        seat.parse().map_err(|_| ApiError::BadRequest(format!("`{seat}` is not a seat number")))?;
    let previous = bearer(&headers)?;
    let req: TakeSeat = parse(&body)?;
    let token = blocking(move || server.take_seat(&id, seat, &req.name, previous.as_deref())).await?;
    Ok(json(StatusCode::CREATED, &token))
}

async fn leave_seat(
    State(server): State<Server>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let seat: u8 =
        seat.parse().map_err(|_| ApiError::BadRequest(format!("`{seat}` is not a seat number")))?;
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("leaving needs the seat's token (Authorization: Bearer …)".into())
    })?;
    blocking(move || server.leave_seat(&id, seat, &token)).await?;
    Ok(json(StatusCode::OK, &serde_json::json!({"left": true, "seat": seat})))
}

async fn act(
    State(server): State<Server>,
    Extension(net): Extension<Arc<Net>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let arrived = Instant::now();
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("acting needs the seat's token (Authorization: Bearer …)".into())
    })?;
    let req: ActRequest = parse(&body)?;
    let turn_id = blocking(move || server.act(&id, &token, req.turn_id, &req.action)).await?;
    net.metrics.action(arrived.elapsed());
    Ok(json(StatusCode::OK, &serde_json::json!({"accepted": true, "turn_id": turn_id})))
}

async fn retract(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("taking back a choice needs the seat's token (Authorization: Bearer …)".into())
    })?;
    let turn_id = blocking(move || server.retract(&id, &token)).await?;
    Ok(json(StatusCode::OK, &serde_json::json!({"retracted": true, "turn_id": turn_id})))
}

async fn hint(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("a hint is for the holder of a seat (Authorization: Bearer …)".into())
    })?;
    let hint = blocking(move || server.hint(&id, &token, wonders_bots::coach::HINT_SAMPLES)).await?;
    Ok(json(StatusCode::OK, &hint))
}

async fn review(
    State(server): State<Server>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("a review is for the players of the game (Authorization: Bearer …)".into())
    })?;
    let mut seat = None;
    for pair in query.as_deref().unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=').unwrap_or((pair, "")) {
            ("seat", value) => {
                seat = Some(value.parse::<u8>().map_err(|_| {
                    ApiError::BadRequest(format!("`seat` must be a seat number, not `{value}`"))
                })?)
            }
            (key, _) => return Err(ApiError::BadRequest(format!("unknown parameter `{key}` (seat)"))),
        }
    }
    let review = blocking(move || server.review(&id, &token, seat)).await?;
    Ok(json(StatusCode::OK, &*review))
}

async fn score(body: Bytes) -> Result<Response, ApiError> {
    let text =
        std::str::from_utf8(&body).map_err(|_| ApiError::BadRequest("the table is not UTF-8 text".into()))?;
    Ok(json(StatusCode::OK, &crate::scorepad::score(text)?))
}

async fn rematch(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("a rematch is started by a player of the game (Authorization: Bearer …)".into())
    })?;
    let info = blocking(move || server.rematch(&id, &token)).await?;
    Ok(json(StatusCode::OK, &info))
}

async fn record(State(server): State<Server>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = server.record(&id)?;
    Ok(json(StatusCode::OK, &record))
}

async fn websocket(
    State(server): State<Server>,
    Extension(net): Extension<Arc<Net>>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let cell = server.table(&id)?;
    let upgrade =
        upgrade.map_err(|e| ApiError::BadRequest(format!("not a WebSocket request: {}", e.body_text())))?;
    let max = net.limits.ws_max_message;
    let upgrade = upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(ws::READ_BUFFER)
        // Messages are buffered until the flush that ends each send: an answer and the state
        // that follows it leave in one write (every send in `ws` flushes).
        .write_buffer_size(ws::WRITE_BUFFER);
    Ok(upgrade.on_upgrade(move |socket| ws::run(server, net, id, cell, socket)))
}
