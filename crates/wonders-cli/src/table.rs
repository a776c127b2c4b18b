//! `wonders score` and `wonders cost` (being written).
pub fn score(_: &std::path::Path, _: bool) -> Result<(), String> {
    Err("not written yet".into())
}
pub fn cost(_: &std::path::Path, _: usize, _: Option<&str>, _: bool, _: bool) -> Result<(), String> {
    Err("not written yet".into())
}
