//! viz-render's front: its flags and `run`.

pub use crate::render::VizRenderArgs as Args;

/// Runs viz-render; the value is the exit code.
pub fn run(args: Args) -> anyhow::Result<u8> {
    crate::render::run(args)
}
