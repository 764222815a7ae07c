//! `kap import FILE`: a group from `kafka-consumer-groups.sh --describe` output, as the scenario
//! file `kap show` and the playground read. The scenario goes to stdout; what was inferred and
//! every line that could not be read go to stderr.

use std::io::Write;
use std::path::Path;

use scenario::import::{self, Options};

use crate::input;

/// The pasted text in FILE, or on stdin for `-`, up to the size kap reads from any file.
pub fn read(path: &Path) -> Result<String, String> {
    let text = if path.as_os_str() == "-" {
        input::read_text(std::io::stdin().lock(), input::MAX_FILE)
    } else {
        std::fs::File::open(path).map_err(|e| e.to_string()).and_then(|file| input::read_text(file, input::MAX_FILE))
    };
    text.map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run(text: &str, options: &Options, out: &mut impl Write, err: &mut impl Write) -> Result<(), String> {
    let import = import::read(text);
    let outcome = import.scenario(options);
    let mut messages = String::new();
    if let Ok(imported) = &outcome {
        for note in &imported.notes {
            messages.push_str(&format!("inferred: {note}\n"));
        }
    }
    for unread in import.unread() {
        messages.push_str(&format!("unread {unread}\n"));
    }
    err.write_all(messages.as_bytes()).map_err(|e| e.to_string())?;
    let imported = outcome.map_err(|e| e.to_string())?;
    writeln!(out, "{}", scenario::to_json(&imported.scenario)).map_err(|e| e.to_string())
}
