//! The HTTP routes: the browser UI, the JSON API and the WebSocket.
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /t/{id}` | the browser UI |
//! | `GET /api/catalog/{edition}` | every card and wonder of an edition, with Chinese names |
//! | `GET /api/bots` | the names of the bots a seat can be given |
//! | `GET /api/tables` | open and finished tables |
//! | `POST /api/tables` | create a table ([`CreateTable`]) |
//! | `GET /api/tables/{id}` | a table's public info |
//! | `GET /api/tables/{id}/state` | the state for the seat of the `Authorization: Bearer` token, or a spectator's |
//! | `POST /api/tables/{id}/seats/{seat}` | take a seat (`{"name": …}`); returns the seat's token once |
//! | `POST /api/tables/{id}/actions` | act for the token's seat ([`crate::msg::ActRequest`]) |
//! | `POST /api/tables/{id}/rematch` | the table's rematch (created once) |
//! | `GET /api/tables/{id}/record` | a finished game's record, with scores |
//! | `GET /api/tables/{id}/ws` | the WebSocket ([`crate::ws`]) |
//!
//! Errors are `{"error": {"code": …, "message": …}}` with a 4xx/5xx status; see [`ApiError`].

use crate::msg::{ActRequest, ApiError, CreateTable, TakeSeat};
use crate::server::Server;
use crate::{catalog, ui, ws};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde::de::DeserializeOwned;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.body())).into_response()
    }
}

/// The routes of the server.
pub fn router(server: Server) -> Router {
    Router::new()
        .route("/", get(ui::index))
        .route("/t/{id}", get(ui::index))
        .route("/static/app.js", get(ui::script))
        .route("/static/style.css", get(ui::style))
        .route("/api/catalog/{edition}", get(catalog_json))
        .route("/api/bots", get(bots))
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(info))
        .route("/api/tables/{id}/state", get(state))
        .route("/api/tables/{id}/seats/{seat}", post(take_seat))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/ws", get(websocket))
        .fallback(not_found)
        .with_state(server)
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

fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
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

async fn list(State(server): State<Server>) -> Response {
    json(StatusCode::OK, &server.list())
}

async fn create(State(server): State<Server>, body: Bytes) -> Result<Response, ApiError> {
    let req: CreateTable = parse(&body)?;
    let info = blocking(move || server.create_table(&req)).await?;
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
    body: Bytes,
) -> Result<Response, ApiError> {
    let seat: usize =
        seat.parse().map_err(|_| ApiError::BadRequest(format!("`{seat}` is not a seat number")))?;
    let req: TakeSeat = parse(&body)?;
    let token = blocking(move || server.take_seat(&id, seat, &req.name)).await?;
    Ok(json(StatusCode::CREATED, &token))
}

async fn act(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?.ok_or_else(|| {
        ApiError::Forbidden("acting needs the seat's token (Authorization: Bearer …)".into())
    })?;
    let req: ActRequest = parse(&body)?;
    let turn_id = blocking(move || server.act(&id, &token, req.turn_id, &req.action)).await?;
    Ok(json(StatusCode::OK, &serde_json::json!({"accepted": true, "turn_id": turn_id})))
}

async fn rematch(State(server): State<Server>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let info = blocking(move || server.rematch(&id)).await?;
    Ok(json(StatusCode::OK, &info))
}

async fn record(State(server): State<Server>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = server.record(&id)?;
    Ok(json(StatusCode::OK, &record))
}

async fn websocket(
    State(server): State<Server>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let cell = server.table(&id)?;
    Ok(upgrade.on_upgrade(move |socket| ws::run(server, id, cell, socket)))
}
