//! `kap import FILE`: a group from `kafka-consumer-groups.sh --describe` output, as the scenario
//! file `kap show` and the playground read. The scenario goes to stdout; what was inferred and
//! every line that could not be read go to stderr.

use std::io::{Read, Write};
use std::path::Path;

use scenario::import::{self, Options};

/// The pasted text in FILE, or on stdin for `-`.
pub fn read(path: &Path) -> Result<String, String> {
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("reading stdin: {e}"))
    } else {
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_string(&mut text))
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    read.map(|_| text)
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
