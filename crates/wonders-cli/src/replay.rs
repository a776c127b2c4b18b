//! `wonders replay` (being written).
pub fn run(_: &std::path::Path, _: bool) -> Result<(), String> {
    Err("not written yet".into())
}
