use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    ExitCode::from(mcp_lint::cli::run(mcp_lint::cli::Cli::parse()))
}
