//! Embeds the rule pages (`rules/*.md`) so `mcp-lint rule <id>` can print them.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it is built: one build of the
    // script serves every checkout that shares a target folder.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .expect("the rules/ folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut table = String::from("pub static PAGES: &[(&str, &str)] = &[\n");
    for path in pages {
        let id = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 name");
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            table,
            "    ({id:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    table.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("pages.rs");
    std::fs::write(out, table).expect("writing pages.rs");
}
