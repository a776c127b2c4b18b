//! `wonders simulate` (being written).
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {}
pub fn run(_: &SimulateArgs) -> Result<(), String> {
    Err("not written yet".into())
}
