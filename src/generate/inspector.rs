//! An MCP Inspector protocol-history export: one JSON array, an entry per
//! line, of tool calls from the client, each answered in its own entry.

use std::io::{self, Write};

use super::{text, timestamp, GeneratedStats, GeneratorConfig, Rng, TOOLS};

/// Writes an export as configured. A share of the answers
/// (`violation_rate`) carries an id no request has.
pub fn generate_inspector<W: Write>(
    config: &GeneratorConfig,
    out: &mut W,
) -> io::Result<GeneratedStats> {
    use serde_json::json;
    let mut rng = Rng(config.seed | 1);
    let mut stats = GeneratedStats::default();
    out.write_all(b"[\n")?;
    stats.bytes += 2;
    let mut id = 0u64;
    while stats.bytes < config.target_bytes {
        let timestamp = timestamp(id * 7);
        let violate = rng.chance(config.violation_rate);
        stats.violations += u64::from(violate);
        let answered = if violate { id + 1_000_000_000 } else { id };
        let entry = json!({"id": id.to_string(), "timestamp": timestamp, "direction": "request", "origin": "client",
            "message": {"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":TOOLS[rng.below(TOOLS.len() as u64) as usize],"arguments":{"query":text(&mut rng, 6, 20)}}},
            "response": {"jsonrpc":"2.0","id":answered,"result":{"content":[{"type":"text","text":text(&mut rng, 12, 60)}],"isError":false}},
            "duration": 5});
        let text = format!("{}{entry}", if id == 0 { "" } else { ",\n" });
        out.write_all(text.as_bytes())?;
        stats.bytes += text.len() as u64;
        stats.lines += 1;
        id += 1;
    }
    out.write_all(b"\n]\n")?;
    stats.bytes += 3;
    out.flush()?;
    Ok(stats)
}
