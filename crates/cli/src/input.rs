//! Reading FILE arguments: a scenario file (what the playground exports) or one group snapshot in
//! the `batch` format, which opens as a fresh scenario.

use std::io::Read;
use std::path::Path;

use scenario::Scenario;

pub fn read(path: &Path) -> Result<Scenario, String> {
    let mut text = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("reading stdin: {e}"))?;
    } else {
        text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<Scenario, String> {
    scenario::read_file(text).map_err(|e| e.to_string())
}
