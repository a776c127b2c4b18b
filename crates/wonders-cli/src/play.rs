//! `wonders play` (being written).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {}
pub fn run(_: &PlayArgs) -> Result<(), String> {
    Err("not written yet".into())
}
