//! `mcp-lint redact IN -o OUT`: a copy of a trace safe to attach to a public
//! bug report. What the rules read is kept (ids, tokens, methods, versions,
//! capabilities, error codes, progress numbers, `_meta` keys, timing,
//! sessions, structure and line numbers); free text is replaced by
//! placeholders of the same JSON type, so the copy lints like the original.
//!
//! Values are rewritten from their text, never through `serde_json::Value`:
//! that would reorder members, drop repeated ones and round big ids, each of
//! which the rules would notice.
//!
//! One redaction serves every input format: `context` says what happens to
//! a value by where it sits (in a JSON-RPC message, its `_meta`, content,
//! headers, a body, a log's sentence); `scan` rewrites a value (JSON, or the
//! JavaScript and Python notations logs print) keeping every byte of its
//! layout; `walk` goes over an input line by line, each line a record, a log
//! line or the continuation of a value; `formats` says, as data, where each
//! format keeps its messages, and `text` handles the text around them:
//! a log's lines keep the prefix their decoder reads (server and user names
//! get pseudonyms) and, by `sentence`, only the known wording of the
//! client's sentences.

mod context;
mod formats;
mod scan;
mod sentence;
mod text;
mod walk;

use std::path::PathBuf;

use crate::cli::{self, InputFormat, EXIT_CLEAN, EXIT_TROUBLE};
use crate::decode::{self, Format};

/// What `mcp-lint redact` was asked to do.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The trace to redact, in any input format mcp-lint reads (JSON lines,
    /// HAR, Inspector exports, client and bridge logs); the copy is in the
    /// same format.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The input's format, when its first lines do not tell.
    #[arg(long, value_enum, default_value_t = InputFormat(None))]
    pub input_format: InputFormat,
    /// Where to write the redacted copy.
    #[arg(short = 'o', long = "output-file", value_name = "OUT")]
    pub output: PathBuf,
}

/// The whole input redacted, line for line, with its line endings, in its
/// own format.
pub fn redact(bytes: &[u8], format: Format) -> Result<Vec<u8>, String> {
    let layout = formats::layout(format, bytes)?;
    Ok(walk::walk_bytes(bytes, &layout))
}

pub fn run(options: &Options) -> u8 {
    let shown =
        |path: &PathBuf| crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
    let written = std::fs::read(&options.input)
        .map_err(|e| format!("{}: {e}", shown(&options.input)))
        .and_then(|bytes| {
            let format = options.input_format.0;
            redact(&bytes, format.unwrap_or_else(|| decode::detect(&bytes)))
                .map_err(|e| format!("{}: {e}", shown(&options.input)))
        })
        .and_then(|redacted| {
            std::fs::write(&options.output, redacted)
                .map_err(|e| format!("{}: {e}", shown(&options.output)))
        });
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(message) => {
            cli::error(message);
            EXIT_TROUBLE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(line: &str) -> String {
        String::from_utf8(redact(line.as_bytes(), Format::Canonical).unwrap()).unwrap()
    }

    #[test]
    fn free_text_goes_and_what_the_rules_read_stays() {
        let line = r#"{"ts":1,"from":"client","session":"s","msg":{"jsonrpc":"2.0","id":12345678901234567890123,"method":"tools/call","params":{"name":"secret_tool","arguments":{"id":"card 4111","n":7},"_meta":{"progressToken":"p","x/y":"private"}}}}"#;
        assert_eq!(
            redacted(line),
            r#"{"ts":1,"from":"client","session":"session-1","msg":{"jsonrpc":"2.0","id":12345678901234567890123,"method":"tools/call","params":{"name":"redacted","arguments":{"id":"redacted","n":0},"_meta":{"progressToken":"p","x/y":"redacted"}}}}"#
        );
    }

    #[test]
    fn repeated_members_and_broken_lines_stay_as_they_were_read() {
        let line =
            "{\"from\":\"server\",\"msg\":{\"id\":1,\"id\":2,\"result\":{}}}\r\nnot json: secret\n";
        assert_eq!(
            redacted(line),
            "{\"from\":\"server\",\"msg\":{\"id\":1,\"id\":2,\"result\":{}}}\r\n<a line that is not JSON, redacted>\n"
        );
    }
}
