use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    mcp_lint::memory::return_large_blocks();
    ExitCode::from(mcp_lint::cli::run(mcp_lint::cli::Cli::parse()))
}
